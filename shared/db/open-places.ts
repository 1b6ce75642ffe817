import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { conditionally } from './conditional.ts';
import { tableName } from './tables.ts';

// Places for held-open requests (a followed log, a wait), counted per holder: one item of the
// rate-limits table per holder (`open#<kind>#<id>`), with one attribute per place (`p0`, `p1`, ...,
// up to the holder's limit), each `{lease, until}` while taken. A place is taken with one conditional
// UpdateItem: "this place is free, or its lease ran out". Two requests that pick the same place
// cannot both get it; one that loses learns from the refusal (the item as it was) which places are
// free, and tries one of those, so no read comes first and no count can drift. A lease names its
// holder: it is renewed while the request is open and given back when it ends, and a holder that
// died without giving it back loses it when `until` passes. The item expires by TTL once idle.

const table = (): string => tableName('rateLimits');

/** How long an idle item outlives its last lease (TTL deletes it some time after). */
const IDLE_ITEM_SECONDS = 3600;

const placeName = (index: number): string => `p${index}`;

interface StoredPlace {
  lease: string;
  until: number;
}

const storedPlace = (value: unknown): StoredPlace | undefined => {
  const place = value as Partial<StoredPlace> | undefined;
  return typeof place?.lease === 'string' && typeof place.until === 'number'
    ? { lease: place.lease, until: place.until }
    : undefined;
};

export interface Holder {
  /** The item's key: `open#key#<keyId>`, `open#owner#<userId>`. */
  bucket: string;
  limit: number;
}

export type Taken = { taken: true; place: number } | { taken: false; freesAt: number };

/**
 * Takes a free place of `holder` for `lease` until `until` (epoch ms); when every place is taken by
 * a live lease, `freesAt` is when the first of them runs out unless renewed.
 */
export async function takePlace(holder: Holder, lease: string, until: number, now: number): Promise<Taken> {
  let place = Math.floor(Math.random() * holder.limit);
  // Each refusal means another lease took the place tried: at most `limit` of them can.
  for (let attempt = 0; attempt <= holder.limit; attempt++) {
    const write = await conditionally(() =>
      db.send(
        new UpdateCommand({
          TableName: table(),
          Key: { bucket: holder.bucket },
          UpdateExpression: 'SET #place = :taken, expiresAt = :expiresAt',
          ConditionExpression: 'attribute_not_exists(#place) OR #place.#until < :now',
          ExpressionAttributeNames: { '#place': placeName(place), '#until': 'until' },
          ExpressionAttributeValues: {
            ':taken': { lease, until },
            ':now': now,
            ':expiresAt': Math.ceil(until / 1000) + IDLE_ITEM_SECONDS,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    if (!write.failed) return { taken: true, place };
    const places = Array.from({ length: holder.limit }, (_, index) =>
      storedPlace(write.old?.[placeName(index)]),
    );
    // The SDK's retry of a write whose answer was lost finds the place already ours.
    if (places[place]?.lease === lease) return { taken: true, place };
    const free = places.flatMap((taken, index) => (taken === undefined || taken.until < now ? [index] : []));
    const next = free[Math.floor(Math.random() * free.length)];
    if (next === undefined) {
      return { taken: false, freesAt: Math.min(...places.map((taken) => taken?.until ?? now)) };
    }
    place = next;
  }
  throw new Error(`Places of ${holder.bucket} kept being taken meanwhile`);
}

/** Moves a held place's expiry on; false when the lease no longer holds it (it ran out and was taken). */
export async function renewPlace(
  holder: Holder,
  place: number,
  lease: string,
  until: number,
): Promise<boolean> {
  const write = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { bucket: holder.bucket },
        UpdateExpression: 'SET #place.#until = :until, expiresAt = :expiresAt',
        ConditionExpression: '#place.#lease = :lease',
        ExpressionAttributeNames: { '#place': placeName(place), '#until': 'until', '#lease': 'lease' },
        ExpressionAttributeValues: {
          ':lease': lease,
          ':until': until,
          ':expiresAt': Math.ceil(until / 1000) + IDLE_ITEM_SECONDS,
        },
      }),
    ),
  );
  return !write.failed;
}

/** Gives a place back, if the lease still holds it. */
export async function releasePlace(holder: Holder, place: number, lease: string): Promise<void> {
  await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { bucket: holder.bucket },
        UpdateExpression: 'REMOVE #place',
        ConditionExpression: '#place.#lease = :lease',
        ExpressionAttributeNames: { '#place': placeName(place), '#lease': 'lease' },
        ExpressionAttributeValues: { ':lease': lease },
      }),
    ),
  );
}
