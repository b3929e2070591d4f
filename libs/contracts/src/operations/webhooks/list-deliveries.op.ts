import { DeliveryListQuery, DeliveryListResponse, WebhookEndpointIdParam } from "../../http/webhooks.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** An endpoint's delivery attempts, newest first. */
export const listDeliveriesOp = defineOperation("webhooks.listDeliveries", DeliveryListQuery.extend(WebhookEndpointIdParam.shape), DeliveryListResponse);
