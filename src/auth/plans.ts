import { readFileSync } from "node:fs";
import bundledPlans from "../catalog/plans.json";

export interface Plan {
  id: string;
  monthly_calls: number;
}
interface PlansFile {
  default_plan: string;
  plans: Plan[];
}

/** Plan quotas for live keys, from src/catalog/plans.json or the operator's copy (SVC_PLANS_FILE). */
export class Plans {
  private readonly byId: Map<string, Plan>;
  readonly defaultPlan: string;

  constructor(file: PlansFile) {
    this.byId = new Map(file.plans.map((p) => [p.id, p]));
    if (!this.byId.has(file.default_plan)) throw new Error(`plans file: default_plan '${file.default_plan}' is not listed`);
    for (const p of file.plans) {
      if (!Number.isInteger(p.monthly_calls) || p.monthly_calls < 0) throw new Error(`plans file: plan '${p.id}' monthly_calls must be a whole number >= 0`);
    }
    this.defaultPlan = file.default_plan;
  }

  static load(path?: string): Plans {
    return new Plans(path ? (JSON.parse(readFileSync(path, "utf8")) as PlansFile) : (bundledPlans as PlansFile));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get ids(): string[] {
    return [...this.byId.keys()];
  }

  monthlyCalls(id: string): number {
    return this.byId.get(id)?.monthly_calls ?? 0;
  }
}
