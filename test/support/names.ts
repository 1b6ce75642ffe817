import { randomUUID } from 'node:crypto';

/** An email address no other test uses. (No service imports here: suites that change settings load it early.) */
export const uniqueEmail = (label = 'user'): string => `${label}-${randomUUID()}@example.test`;
