import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { atMost } from '#shared/schemas/common.ts';

/** `{id}` and `{envId}` in a variable's path; their format is checked by the domain (404 otherwise). */
export const VariableParams = z.object({
  id: z.string().check(atMost(ID_MAX_LENGTH)),
  envId: z
    .string()
    .check(atMost(ID_MAX_LENGTH))
    .register(z.globalRegistry, {
      description: "The variable's id as the API returned it; any other answers 404.",
      examples: ['env_01JD8Z6H7J8K9M0N1P2Q3R4S5T'],
    }),
});
