import type { Commands } from '../command.ts';
import { auditCommands } from './audit.ts';
import { authCommands } from './auth.ts';
import { deploymentCommands } from './deployments.ts';
import { domainCommands } from './domains.ts';
import { envCommands } from './env.ts';
import { invitationCommands } from './invitations.ts';
import { keyCommands } from './keys.ts';
import { logCommands } from './logs.ts';
import { productionCommands } from './production.ts';
import { projectCommands } from './projects.ts';
import { teamCommands } from './teams.ts';
import { tokenCommands } from './tokens.ts';
import { webhookCommands } from './webhooks.ts';

// Every command, by group, in the order `platform --help` lists them. A new group (teams, tokens,
// audit, domains) is a module of its own beside these, exporting its `Commands`, and one line here.

export const commands: Commands = {
  ...authCommands,
  ...projectCommands,
  ...deploymentCommands,
  ...productionCommands,
  ...logCommands,
  ...keyCommands,
  ...envCommands,
  ...webhookCommands,
  ...teamCommands,
  ...invitationCommands,
  ...tokenCommands,
  ...auditCommands,
  ...domainCommands,
};
