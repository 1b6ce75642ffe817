import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { scheduledConsumers } from '#shared/consumers.ts';
import type { TableKey } from '#shared/db/tables.ts';
import { DEFAULT_DOMAIN_TARGET } from '#shared/model/custom-domains/domains.ts';
import { bindGrants } from '../access/bind-grants.ts';
import { functionGrants } from '../access/grants.ts';
import { consumerFunction } from './consumer-function.ts';

// The background checks of custom domains (functions/custom-domains/recheck-domains.ts): an EventBridge rule
// invokes the function every minute (its consumer row's period); each run checks the pending domains
// that are due and expires those past their 7 days. What it may call is its row's (shared/consumers.ts):
// query the due queue, write each check. Its errors alarm with the other consumers' (infra/operations/monitoring.ts):
// a run that fails leaves the domains due, and the next run takes them.

const consumer = scheduledConsumers.find(({ handler }) => handler === 'recheck-domains');

export interface DomainChecksProps {
  tables: Record<TableKey, ITable>;
  logRetention: RetentionDays;
  /**
   * What a domain's CNAME should point at (`-c domainTarget=`), shown as its routing record's value;
   * DEFAULT_DOMAIN_TARGET when not given.
   */
  domainTarget?: string;
  /** The route functions by handler: those that show or check the routing record get its target too. */
  endpointFunctions: ReadonlyMap<string, { addEnvironment(name: string, value: string): unknown }>;
}

/** The route functions that show or check a domain's routing record. */
const SHOWS_ROUTING = ['create-domain', 'verify-domain'] as const;

export class DomainChecks extends Construct {
  readonly function: NodejsFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: DomainChecksProps) {
    super(scope, id);
    if (!consumer) throw new Error('No recheck-domains consumer in shared/consumers.ts');
    this.function = consumerFunction(this, 'Function', {
      handler: consumer.handler,
      area: 'domains',
      // A round spends 40 s at most on new checks; each check waits 2 s at most for DNS.
      timeout: Duration.seconds(60),
      logRetention: props.logRetention,
    });
    const domainTarget = props.domainTarget ?? DEFAULT_DOMAIN_TARGET;
    this.function.addEnvironment('DOMAIN_TARGET', domainTarget);
    for (const handler of SHOWS_ROUTING)
      props.endpointFunctions.get(handler)?.addEnvironment('DOMAIN_TARGET', domainTarget);
    bindGrants(this.function, functionGrants(consumer.handler), { tables: props.tables });
    this.rule = new Rule(this, 'Schedule', {
      description: 'Checks pending custom domains again when due, and expires them after 7 days',
      schedule: Schedule.rate(Duration.minutes(consumer.everyMinutes)),
      // One run at a time is enough: a missed or failed run's domains are still due at the next.
      targets: [new LambdaFunction(this.function, { retryAttempts: 0 })],
    });
  }
}
