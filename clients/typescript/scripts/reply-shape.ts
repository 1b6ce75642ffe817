// What a method answers, as its doc comment names it: the body's component, and for a wrapper (a
// body that holds a resource beside something else, such as the secret a create shows once) its
// fields, so that `webhooks.create` reads `{secret, webhook}` where the method is read, not only
// in the types. Creates that show a secret answer it beside the resource, as the contract decided
// (`{apiKey, key}`, `{apiKey, token}`, `{secret, webhook}`); every other create answers the resource.

interface SchemaNode {
  $ref?: string;
  type?: string;
  properties?: Record<string, SchemaNode>;
}

/** `Project`, or `{secret, webhook}` (WebhookCreated) for a wrapper; undefined for an inline body. */
export function replyShape(
  schema: { $ref?: string } | undefined,
  resolve: (node: object) => SchemaNode,
): string | undefined {
  const name = schema?.$ref?.split('/').pop();
  if (!schema || !name) return undefined;
  const fields = Object.entries(resolve(schema).properties ?? {});
  const wraps = fields.some(([, field]) => field.$ref !== undefined && resolve(field).type === 'object');
  return wraps ? `{${fields.map(([field]) => field).join(', ')}} (${name})` : name;
}
