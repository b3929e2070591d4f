import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";

/** A file a page links to (its stylesheet, its script), kept in the code and served from memory. */
export interface StaticAsset {
  /** `<stem>-<hash>.<ext>`: renamed whenever the content changes. */
  name: string;
  body: string;
  contentType: string;
}

/** Named by a hash of its content, so a browser may keep it for a year (`sendAsset`). */
export function hashedAsset(stem: string, ext: string, body: string, contentType: string): StaticAsset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { name: `${stem}-${hash}.${ext}`, body, contentType };
}

/** The cache policy of a content-addressed file: a new content is a new name. */
export const ONE_YEAR_IMMUTABLE = "public, max-age=31536000, immutable";

export function sendAsset(reply: FastifyReply, asset: { body: string | Buffer; contentType: string }): FastifyReply {
  return reply.header("cache-control", ONE_YEAR_IMMUTABLE).type(asset.contentType).send(asset.body);
}
