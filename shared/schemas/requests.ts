import { LoginBody, RegisterBody } from './auth.ts';
import { IdParams, PageQuery } from './common.ts';
import { AppendLogsBody, LogQuery, LogStreamHeaders } from './deployment-logs.ts';
import {
  CreateDeploymentBody,
  DeploymentsQuery,
  ProjectDeploymentsQuery,
  ReportDeploymentEventBody,
  WaitQuery,
} from './deployments.ts';
import { CreateDomainBody, DomainParams } from './domains.ts';
import {
  CreateVariableBody,
  ReplaceEnvironmentBody,
  UpdateVariableBody,
  VariableParams,
} from './environment.ts';
import { CreateKeyBody } from './keys.ts';
import { PromoteBody, RollbackBody } from './production.ts';
import { CreateProjectBody, UpdateProjectBody } from './projects.ts';
import { CreateTeamTokenBody, TokenParams } from './team-tokens.ts';
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  CreateTeamBody,
  InvitationParams,
  MemberParams,
  TeamParams,
  UpdateMemberBody,
  UpdateTeamBody,
} from './teams.ts';
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
} as const;

export type RequestSchemaName = keyof typeof requestSchemas;
