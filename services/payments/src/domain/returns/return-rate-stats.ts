import type { ReturnGroup } from "./return-groups.ts";

/**
 * The return rates this process last computed, by merchant and group, for the `/metrics`
 * gauges (`payrail_return_rate`). One per process; a merchant appears once its rates were
 * asked for or one of its debits was returned here.
 */
export class ReturnRateStats {
  private readonly rates = new Map<string, Record<ReturnGroup, number>>();

  record(merchantId: string, group: ReturnGroup, rate: number): void {
    const rates = this.rates.get(merchantId) ?? { unauthorized: 0, administrative: 0, overall: 0 };
    rates[group] = rate;
    this.rates.set(merchantId, rates);
  }

  snapshot(): { merchantId: string; group: ReturnGroup; rate: number }[] {
    return [...this.rates].flatMap(([merchantId, rates]) => (Object.keys(rates) as ReturnGroup[]).map((group) => ({ merchantId, group, rate: rates[group] })));
  }
}

export const returnRateStats = new ReturnRateStats();
