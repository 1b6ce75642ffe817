import { CreateDeploymentBody, ReportDeploymentEventBody } from '#shared/schemas/deployments/deployments.ts';
import { LogQuery, LogStreamHeaders } from '#shared/schemas/deployments/log-query.ts';
import { AppendLogsBody } from '#shared/schemas/deployments/logs.ts';
import { DeploymentsQuery, ProjectDeploymentsQuery, WaitQuery } from '#shared/schemas/deployments/queries.ts';
import { CreateVariableBody, ReplaceEnvironmentBody } from '#shared/schemas/environment/environment.ts';
import { UpdateVariableBody } from '#shared/schemas/environment/update.ts';
import { VariableParams } from '#shared/schemas/environment/variable-params.ts';
import { InvitationParams, MemberParams, TeamParams, TokenParams } from '#shared/schemas/teams/params.ts';
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  CreateTeamBody,
  UpdateMemberBody,
  UpdateTeamBody,
} from '#shared/schemas/teams/teams.ts';
import { CreateTeamTokenBody } from '#shared/schemas/teams/tokens.ts';
import { CreateWebhookBody, UpdateWebhookBody } from '#shared/schemas/webhooks/webhooks.ts';
import { AuditEventsQuery } from './audit.ts';
import { LoginBody, RegisterBody } from './auth.ts';
import { IdParams } from './common.ts';
import { CreateDomainBody, DomainParams } from './domains.ts';
import { CreateKeyBody } from './keys.ts';
import { PageQuery } from './page-query.ts';
import { PromoteBody, RollbackBody } from './production.ts';
import { CreateProjectBody, UpdateProjectBody } from './projects.ts';

/**
 * Every request schema, by the name the route table gives it. A function passes the schema itself to
 * its endpoint (its bundle holds only its own), typed to be the one its row names; the OpenAPI
 * document reads them from here.
 */
export const requestSchemas = {
  IdParams,
  PageQuery,
  CreateProjectBody,
  UpdateProjectBody,
  PromoteBody,
  RollbackBody,
  CreateDeploymentBody,
  ReportDeploymentEventBody,
  ProjectDeploymentsQuery,
  DeploymentsQuery,
  RegisterBody,
  LoginBody,
  CreateKeyBody,
  CreateWebhookBody,
  UpdateWebhookBody,
  VariableParams,
  CreateVariableBody,
  UpdateVariableBody,
  ReplaceEnvironmentBody,
  AppendLogsBody,
  LogQuery,
  LogStreamHeaders,
  WaitQuery,
  CreateTeamBody,
  UpdateTeamBody,
  TeamParams,
  MemberParams,
  UpdateMemberBody,
  CreateInvitationBody,
  InvitationParams,
  AcceptInvitationBody,
  CreateTeamTokenBody,
  TokenParams,
  CreateDomainBody,
  DomainParams,
  AuditEventsQuery,
} as const;

export type RequestSchemaName = keyof typeof requestSchemas;
