// One way to write an UpdateItem's SET and REMOVE clauses: attribute names and values always go
// through placeholders (`#s0 = :s0`), so no attribute can collide with a reserved word and no value
// is ever spliced into the expression. Fixed clauses a write needs besides (a list_append, a
// counter) are passed as they are, with their own names and values.

export interface UpdateParts {
  /** Attributes to set; an undefined value is left out (neither set nor removed). */
  set?: Record<string, unknown>;
  /** Attributes to remove. */
  remove?: readonly string[];
  /** Further SET clauses written by hand, e.g. `#events = list_append(...)`. */
  extraSet?: readonly string[];
  /** Names and values the extra clauses (and the write's condition) use. */
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export interface UpdateExpression {
  UpdateExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** The UpdateExpression and its placeholders for setting and removing the given attributes. */
export function updateExpression(parts: UpdateParts): UpdateExpression {
  const names: Record<string, string> = { ...parts.names };
  const values: Record<string, unknown> = { ...parts.values };
  const assignments = Object.entries(parts.set ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([attribute, value], index) => {
      names[`#s${index}`] = attribute;
      values[`:s${index}`] = value;
      return `#s${index} = :s${index}`;
    });
  assignments.push(...(parts.extraSet ?? []));
  const removals = (parts.remove ?? []).map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  const clauses = [
    ...(assignments.length > 0 ? [`SET ${assignments.join(', ')}`] : []),
    ...(removals.length > 0 ? [`REMOVE ${removals.join(', ')}`] : []),
  ];
  if (clauses.length === 0) throw new Error('An update must set or remove at least one attribute');
  return {
    UpdateExpression: clauses.join(' '),
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}
