import { standsOpen, type TeamOpenCheck } from '#shared/db/teams/teams.ts';
import type { Caller } from '#shared/model/caller.ts';
import { ConflictError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';

// A shared team being deleted is closed to new projects, webhooks, tokens and members (deleteTeam in
// teams.ts): each is written in one transaction with this check, so none is left behind in a team
// that is gone. A personal team is never deleted: its writes carry no check and cost what they did.

/** The check a new project, webhook or token of the caller's team is written with; none in a personal team. */
export const teamOpenCheck = (caller: Caller): TeamOpenCheck | undefined =>
  caller.team.personal ? undefined : standsOpen(caller.team.id, clock.now());

/** The answer to a write that check refused. */
export const teamClosed = (teamId: string): ConflictError =>
  new ConflictError(`Team ${teamId} is being deleted: nothing new can be added to it`);
