import type { RequestMeta } from "./payments.port.ts";

/** What refunds needs from identity, which owns merchants and their operators. */
export interface OperatorsPort {
  /** Whether the user with this (E.164) phone is registered as an operator of the merchant. */
  isOperator(meta: RequestMeta, merchantId: string, phone: string): Promise<boolean>;
}
