import { isOperatorOp, onOwnAccount } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { OperatorsPort } from "../domain/ports/operators.port.ts";
import type { RequestMeta } from "../domain/ports/payments.port.ts";

/** Identity over RPC, asked on refunds' own account (an internal operation). */
export class IdentityServiceClient implements OperatorsPort {
  constructor(private readonly transport: Transport) {}

  async isOperator(meta: RequestMeta, merchantId: string, phone: string): Promise<boolean> {
    const out = await this.transport.call(
      isOperatorOp,
      { merchant_id: merchantId, phone },
      onOwnAccount("refunds", meta),
    );
    return out.operator;
  }
}
