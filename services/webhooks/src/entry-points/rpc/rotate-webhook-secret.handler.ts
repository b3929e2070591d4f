import { rotateWebhookSecretOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { rotateWebhookSecret } from "../../domain/rotate-webhook-secret.use-case.ts";
import type { WebhooksDeps } from "./deps.ts";

export const rotateWebhookSecretHandler = (deps: WebhooksDeps) => handle(rotateWebhookSecretOp, (payload, ctx) => rotateWebhookSecret(deps, ctx, payload));
