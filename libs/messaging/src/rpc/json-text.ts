/**
 * A reply's data as the JSON text the serving side wrote, not parsed: what a transport answers a
 * call made with `asJsonText` when the reply came as text (over RabbitMQ), so that a caller who
 * only writes it on as JSON (an HTTP response) neither parses nor serialises it again. The bytes
 * are the server's `JSON.stringify` of the handler's value; `toJSON` makes the value itself
 * appear wherever a JsonText is serialised by `JSON.stringify` after all.
 */
export class JsonText {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString("utf8"));
  }
}
