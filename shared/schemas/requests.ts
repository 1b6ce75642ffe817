import { AuditEventsQuery } from './audit.ts';
import { LoginBody, RegisterBody } from './auth.ts';
import { IdParams } from './common.ts';
import { LogQuery, LogStreamHeaders } from './deployment-log-query.ts';
import { AppendLogsBody } from './deployment-logs.ts';
import { DeploymentsQuery, ProjectDeploymentsQuery, WaitQuery } from './deployment-queries.ts';
import { CreateDeploymentBody, ReportDeploymentEventBody } from './deployments.ts';
import { CreateDomainBody, DomainParams } from './domains.ts';
import { CreateVariableBody, ReplaceEnvironmentBody } from './environment.ts';
import { UpdateVariableBody } from './environment-update.ts';
import { CreateKeyBody } from './keys.ts';
import { PageQuery } from './page-query.ts';
import { PromoteBody, RollbackBody } from './production.ts';
import { CreateProjectBody, UpdateProjectBody } from './projects.ts';
import { InvitationParams, MemberParams, TeamParams, TokenParams } from './team-params.ts';
import { CreateTeamTokenBody } from './team-tokens.ts';
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  CreateTeamBody,
  UpdateMemberBody,
  UpdateTeamBody,
} from './teams.ts';
import { VariableParams } from './variable-params.ts';
import { CreateWebhookBody, UpdateWebhookBody } from './webhooks.ts';

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
