/**
 * The id and type of a message that may not be a valid event (a dead letter's record, a replay):
 * read without the schema, strings only, and short, since the message is anyone's input.
 */
export function idAndType(body: string): { id: string | undefined; type: string | undefined } {
  try {
    const { id, type } = JSON.parse(body) as { id?: unknown; type?: unknown };
    const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 200) : undefined);
    return { id: text(id), type: text(type) };
  } catch {
    return { id: undefined, type: undefined };
  }
}
