import * as z from 'zod/mini';
import { atMost } from '#shared/schemas/common.ts';

/** `{id}` and `{envId}` in a variable's path; their format is checked by the domain (404 otherwise). */
export const VariableParams = z.object({
  id: z.string().check(atMost(64)),
  envId: z
    .string()
    .check(atMost(64))
    .register(z.globalRegistry, {
      description: "The variable's id as the API returned it; any other answers 404.",
      examples: ['env_01JD8Z6H7J8K9M0N1P2Q3R4S5T'],
    }),
});
