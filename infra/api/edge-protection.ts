import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { errorCatalogue, MAX_REQUEST_BODY_BYTES } from '#shared/model/error-catalogue.ts';

// AWS WAF in front of both stages: what it refuses never invokes a function, so a flood costs
// nothing and cannot take the account's Lambda concurrency from everyone else. The per-key and
// per-address limits of the contract stay in the functions (exact, in DynamoDB); these rules are
// the coarse outer guard, counted per source address over five minutes.

export interface EdgeLimits {
  /** Requests per source address per 5 minutes, over both APIs. */
  requestsPerAddress: number;
  /** Requests per source address per 5 minutes to /auth/* (login hashes passwords: 1 GB functions). */
  authRequestsPerAddress: number;
}

export const DEFAULT_EDGE_LIMITS: EdgeLimits = { requestsPerAddress: 3000, authRequestsPerAddress: 100 };

export interface EdgeProtectionProps {
  name: string;
  limits: EdgeLimits;
  /** The APIs to protect, and the path prefix of their /auth/* routes as WAF sees it (with the stage). */
  apis: readonly RestApi[];
  authPathPrefix: string;
}

/**
 * What a path is matched as: decoded (`/live/%61uth/` is `/live/auth/`), normalized (`//`, `/./` and
 * `/x/../` removed), then lower-cased. API Gateway's paths are case-sensitive, so `/live/AUTH/login`
 * reaches the fallback's 404, not login; counting it against the /auth/* limit too is stricter, never
 * looser, and keeps the rule right if a route ever matches either case.
 */
export const PATH_TRANSFORMATIONS: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'URL_DECODE' },
  { priority: 1, type: 'NORMALIZE_PATH' },
  { priority: 2, type: 'LOWERCASE' },
];

/** WAF's evaluation window for the rate rules: the retry advice of their 429 answers. */
const WINDOW_SECONDS = 300;

const bodies = {
  payloadTooLarge: JSON.stringify({
    error: 'payload_too_large',
    message: errorCatalogue.payload_too_large.message,
  }),
  rateLimited: JSON.stringify({ error: 'rate_limit_exceeded', retryAfter: WINDOW_SECONDS }),
};

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

const blockWith = (
  status: number,
  bodyKey: keyof typeof bodies,
  headers: Record<string, string> = {},
): CfnWebACL.RuleActionProperty => ({
  block: {
    customResponse: {
      responseCode: status,
      customResponseBodyKey: bodyKey,
      ...(Object.keys(headers).length > 0
        ? { responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })) }
        : {}),
    },
  },
});

const rateRule = (
  name: string,
  priority: number,
  limit: number,
  scopeDown?: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: {
    rateBasedStatement: {
      limit,
      aggregateKeyType: 'IP',
      evaluationWindowSec: WINDOW_SECONDS,
      ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
    },
  },
  action: blockWith(errorCatalogue.rate_limit_exceeded.status, 'rateLimited', {
    'Retry-After': String(WINDOW_SECONDS),
  }),
  visibilityConfig: visibility(name),
});

/**
 * Managed rule groups that refuse only what no client of this API sends. Not the Core rule set: its
 * body rules refuse JSON bodies over 8 KB (the contract allows 64 KiB) and text that looks like
 * markup or SQL, which project names and deployment messages may legitimately contain (every field
 * is validated, stored and returned as data); nor the SQL database or Linux groups (DynamoDB, no
 * shell).
 */
const managedGroups = [
  // Addresses Amazon's threat intelligence has seen attacking, bots and scanners above all.
  'AWSManagedRulesAmazonIpReputationList',
  // Request patterns of known exploits (Log4Shell, Java deserialization, localhost Host headers).
  'AWSManagedRulesKnownBadInputsRuleSet',
];

export class EdgeProtection extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeProtectionProps) {
    super(scope, id);
    const rules: CfnWebACL.RuleProperty[] = [
      {
        // The contract's 413 for any body over 64 KiB, including those between Lambda's 6 MB invoke
        // limit and API Gateway's 10 MB, which would otherwise fail as a 5xx. WAF inspects the first
        // 64 KiB (the association's limit below); a larger body is "oversize" and matches.
        name: 'BodyTooLarge',
        priority: 0,
        statement: {
          sizeConstraintStatement: {
            fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
            comparisonOperator: 'GT',
            size: MAX_REQUEST_BODY_BYTES,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        action: blockWith(errorCatalogue.payload_too_large.status, 'payloadTooLarge'),
        visibilityConfig: visibility('BodyTooLarge'),
      },
      rateRule('AuthRequestsPerAddress', 1, props.limits.authRequestsPerAddress, {
        byteMatchStatement: {
          fieldToMatch: { uriPath: {} },
          positionalConstraint: 'STARTS_WITH',
          searchString: props.authPathPrefix,
          textTransformations: PATH_TRANSFORMATIONS,
        },
      }),
      rateRule('RequestsPerAddress', 2, props.limits.requestsPerAddress),
      ...managedGroups.map(
        (name, index): CfnWebACL.RuleProperty => ({
          name,
          priority: 10 + index,
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
          overrideAction: { none: {} },
          visibilityConfig: visibility(name),
        }),
      ),
    ];

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      rules,
      customResponseBodies: Object.fromEntries(
        Object.entries(bodies).map(([key, content]) => [key, { contentType: 'APPLICATION_JSON', content }]),
      ),
      // Inspect bodies up to the contract's limit (the default is 16 KB, which would make every body
      // between 16 and 64 KiB "oversize" and refused).
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      visibilityConfig: visibility(props.name),
    });

    for (const api of props.apis) {
      new CfnWebACLAssociation(this, `${api.node.id}Association`, {
        resourceArn: api.deploymentStage.stageArn,
        webAclArn: this.webAcl.attrArn,
      });
    }
  }
}
