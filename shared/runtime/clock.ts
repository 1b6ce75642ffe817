/** The service's one source of "now"; tests replace `clock.now` instead of sleeping. */
export const clock = {
  now: (): number => Date.now(),
};

export const nowSeconds = (): number => Math.floor(clock.now() / 1000);

export const isoNow = (): string => new Date(clock.now()).toISOString();
