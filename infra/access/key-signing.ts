import type { CfnResource } from 'aws-cdk-lib';
import type { Route } from '#shared/routes.ts';
import type { EndpointFunction } from '../api/endpoint-function.ts';

// Seed rotation without a window of refused keys (README, Rotating the key-signing seed). The custom
// resource publishes the current and the previous public key; verifiers and issuers get them in the
// same variable, in the same deploy. Issuers sign with the newest published seed, so if one of them
// took the new variable before some verifier did, a key it issued would be refused there until that
// verifier's update finished. CloudFormation updates a resource only after those it depends on:
// making each issuer's function depend on every verifier's closes that gap (and on a rollback the
// order reverses, issuers first, which is as safe).

/** The rows whose functions sign keys' identities: those that read the key-signing seed. */
export const issuesKeys = (route: Route): boolean => route.secrets?.includes('keySigningSeed') ?? false;

/** The rows whose functions verify them: every keyed row. */
export const verifiesKeys = (route: Route): boolean => route.access === 'apiKey';

/** Orders the deploy: every issuer's function is updated after every other verifier's. */
export function issueAfterVerifiers(functions: Iterable<EndpointFunction>): void {
  const all = [...functions];
  const verifiers = all.filter((fn) => verifiesKeys(fn.route) && !issuesKeys(fn.route));
  for (const issuer of all.filter((fn) => issuesKeys(fn.route))) {
    const resource = issuer.node.defaultChild as CfnResource;
    for (const verifier of verifiers) resource.node.addDependency(verifier.node.defaultChild as CfnResource);
  }
}
