import { AppendedLogs, LogEventStream, LogLineList } from '#shared/schemas/deployments/log-resources.ts';
import {
  BuildEnvironment,
  EnvironmentVariable,
  EnvironmentVariableList,
  EnvironmentVariableSet,
} from '#shared/schemas/environment/resources.ts';
import {
  AcceptedInvitation,
  CreatedInvitation,
  Invitation,
  InvitationList,
  Member,
  MemberList,
  ReceivedInvitationList,
  RoleList,
  Team,
  TeamList,
} from '#shared/schemas/teams/resources.ts';
import { CreatedTeamToken, TeamToken, TeamTokenList } from '#shared/schemas/teams/token-resources.ts';
import {
  CreatedWebhook,
  Webhook,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestResult,
} from '#shared/schemas/webhooks/resources.ts';
import { ApiKey, ApiKeyList, CreatedApiKey, LoginResult, User, UserList } from './account-resources.ts';
import { AuditEvent, AuditEventList } from './audit-resources.ts';
import { Domain, DomainList } from './domain-resources.ts';
import {
  Deployment,
  DeploymentEventList,
  DeploymentList,
  ProductionHistory,
  Project,
  ProjectList,
} from './resources.ts';
import { Health, OpenApiDocumentBody, TextBody } from './service-bodies.ts';

/**
 * Every body a handler may reply with, by the name the route table gives it. The route table and the
 * reply types import this as a type only; the OpenAPI document is the one importer at run time.
 */
export const responseBodies = {
  Project,
  ProjectList,
  Deployment,
  DeploymentList,
  DeploymentEventList,
  ProductionHistory,
  User,
  UserList,
  LoginResult,
  ApiKey,
  ApiKeyList,
  CreatedApiKey,
  Webhook,
  CreatedWebhook,
  WebhookList,
  WebhookDeliveryList,
  WebhookTestResult,
  EnvironmentVariable,
  EnvironmentVariableList,
  EnvironmentVariableSet,
  BuildEnvironment,
  LogLineList,
  LogEventStream,
  AppendedLogs,
  Team,
  TeamList,
  Member,
  MemberList,
  Invitation,
  CreatedInvitation,
  InvitationList,
  ReceivedInvitationList,
  AcceptedInvitation,
  RoleList,
  TeamToken,
  CreatedTeamToken,
  TeamTokenList,
  AuditEvent,
  AuditEventList,
  Domain,
  DomainList,
  Health,
  OpenApiDocument: OpenApiDocumentBody,
  Text: TextBody,
} as const;

export type ResponseBodyName = keyof typeof responseBodies;
