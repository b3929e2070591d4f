import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { rpcQueueOf } from "@payrail/contracts";
import { SERVICE_NAMES, drainBoundMs } from "@payrail/runtime";
import { EVENTS_EXCHANGE } from "../../libs/messaging/src/amqp/event-topology.ts";
import { RPC_EXCHANGE } from "../../libs/messaging/src/amqp/rpc-topology.ts";
import { readDefinitions } from "../support/broker-users.ts";

/**
 * deploy/helm/payrail rendered by the real helm (scripts/helm-install.sh builds it; .ci/run passes
 * it as HELM), with the default values and with values-full.yaml, and its invariants read from
 * the parsed manifests. Without helm the suite is skipped, saying so; under REQUIRE_INFRA=1
 * (CI) it fails instead.
 */
const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const CHART = join(ROOT, "deploy/helm/payrail");
const FULL = join(CHART, "values-full.yaml");
const DOMAIN = SERVICE_NAMES.filter((s) => s !== "gateway");

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- Kubernetes objects of many kinds
  data?: Record<string, string>;
}

function findHelm(): string | undefined {
  if (process.env.HELM) return process.env.HELM;
  const version = /^VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, "scripts/helm-install.sh"), "utf8"))?.[1];
  const cached = join(process.env.PAYRAIL_TOOLS_DIR ?? join(homedir(), ".cache/payrail-tools"), `helm-${version}`);
  return existsSync(cached) ? cached : undefined;
}
const helm = findHelm();
const required = process.env.REQUIRE_INFRA === "1";
if (!helm && !required) console.warn("helm-chart.test.ts skipped: no helm (run scripts/helm-install.sh, or set HELM to a helm binary)");

async function template(...args: string[]): Promise<Manifest[]> {
  if (!helm) throw new Error("REQUIRE_INFRA=1 but no helm: run scripts/helm-install.sh or set HELM");
  const { stdout } = await run(helm, ["template", "pr", CHART, "--namespace", "payrail", ...args], { maxBuffer: 16 * 1024 * 1024 });
  return parseAllDocuments(stdout)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

async function refusal(...args: string[]): Promise<string> {
  try {
    await template(...args);
  } catch (err) {
    return (err as { stderr?: string }).stderr ?? String(err);
  }
  throw new Error(`helm template ${args.join(" ")} rendered; a refusal was expected`);
}

const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);
const componentOf = (m: Manifest) => m.metadata.labels?.["app.kubernetes.io/component"];
const deploymentOf = (manifests: Manifest[], component: string) => ofKind(manifests, "Deployment").find((d) => componentOf(d) === component)!;
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
/** A Secret's values but the broker user names (the trust boundary's settings name them, in the open). */
const secretValuesOf = (secret: Manifest) =>
  Object.entries(secret.data ?? {})
    .filter(([key]) => key !== "username")
    .map(([, v]) => Buffer.from(v, "base64").toString("utf8"));

describe.skipIf(!helm && !required).each([
  ["default values", [] as string[]],
  ["values-full.yaml", ["-f", FULL]],
])("the Helm chart with %s", (_name, valueArgs) => {
  const rendered = template(...valueArgs);

  it("runs each role in a Deployment of its own, SERVICES naming it", async () => {
    const manifests = await rendered;
    expect(ofKind(manifests, "Deployment").map(componentOf).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const component of SERVICE_NAMES) {
      const env = containerOf(deploymentOf(manifests, component)).env as { name: string; value?: string }[];
      expect(env.find((e) => e.name === "SERVICES")?.value).toBe(component);
    }
  });

  it("creates the indexes in a hook Job before an upgrade's pods roll out, before the install's too when the Secret is yours", async () => {
    const manifests = await rendered;
    const [job, ...others] = ofKind(manifests, "Job");
    expect(others).toEqual([]);
    expect(componentOf(job!)).toBe("indexes");
    const pod = job!.spec.template.spec;
    const container = pod.containers[0];
    expect(container.args).toEqual(["node", "dist/payrail.mjs", "indexes"]);
    expect(container.image).toBe(containerOf(deploymentOf(manifests, "checkout")).image);
    expect(pod.restartPolicy).toBe("Never");
    expect(container.resources?.requests?.cpu).toBeDefined();
    // Helm applies the upgraded Deployments once this succeeded; a chart-made Secret does not exist before an install's resources.
    const appSecret = ofKind(manifests, "Secret").find((s) => s.metadata.name === "pr-payrail-secrets");
    const annotations = job!.metadata.annotations!;
    expect(annotations["helm.sh/hook"]).toBe(appSecret ? "post-install,pre-upgrade" : "pre-install,pre-upgrade");
    expect(annotations["helm.sh/hook-delete-policy"]).toContain("before-hook-creation");
    // Nothing a pre-install hook would not find: no ConfigMap, no ServiceAccount of the chart; the store's URL from the app Secret.
    expect(container.envFrom).toBeUndefined();
    expect(pod.serviceAccountName).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
    const url = (container.env as { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[]).find((e) => e.name === "MONGODB_URL");
    expect(url?.valueFrom?.secretKeyRef?.key).toBe("MONGODB_URL");
    expect(url?.valueFrom?.secretKeyRef?.name).toBe(containerOf(deploymentOf(manifests, "checkout")).env.find((e: { name: string }) => e.name === "MONGODB_URL").valueFrom.secretKeyRef.name);
    // The services wait for their indexes anyway: each creates them before its metrics port (the startup probe's) opens.
    for (const component of DOMAIN) expect(containerOf(deploymentOf(manifests, component)).startupProbe.httpGet.port).toBe("metrics");
    const policy = ofKind(manifests, "NetworkPolicy").find((p) => componentOf(p) === "indexes");
    if (ofKind(manifests, "NetworkPolicy").length > 0) {
      expect(policy?.spec.ingress).toEqual([]);
      expect(policy?.spec.podSelector.matchLabels["app.kubernetes.io/component"]).toBe("indexes");
    }
  });

  it("probes every role: started and alive on /healthz, ready on /readyz, on a port the container declares", async () => {
    for (const component of SERVICE_NAMES) {
      const container = containerOf(deploymentOf(await rendered, component));
      const ports = (container.ports as { name: string }[]).map((p) => p.name);
      for (const [probe, path] of [["startupProbe", "/healthz"], ["livenessProbe", "/healthz"], ["readinessProbe", "/readyz"]] as const) {
        expect(container[probe]?.httpGet?.path, `${component} ${probe}`).toBe(path);
        expect(ports, `${component} ${probe} port`).toContain(container[probe].httpGet.port);
      }
    }
  });

  it("gives every role a PodDisruptionBudget over its own pods, resource requests, and a pinned image", async () => {
    const manifests = await rendered;
    const budgets = ofKind(manifests, "PodDisruptionBudget");
    for (const component of SERVICE_NAMES) {
      const deployment = deploymentOf(manifests, component);
      const labels = deployment.spec.template.metadata.labels as Record<string, string>;
      const own = budgets.filter((b) => selects(b.spec.selector.matchLabels, labels));
      expect(own.map(componentOf), component).toEqual([component]);
      const { requests } = containerOf(deployment).resources;
      expect(requests.cpu, component).toBeTruthy();
      expect(requests.memory, component).toBeTruthy();
      const image = containerOf(deployment).image as string;
      expect(image).toMatch(/(:[\w][\w.-]*|@sha256:[0-9a-f]{64})$/);
      expect(image).not.toMatch(/:latest$/);
    }
  });

  it("keeps secret values out of ConfigMaps and out of plain env values", async () => {
    const manifests = await rendered;
    const secretValues = ofKind(manifests, "Secret").flatMap(secretValuesOf).filter((v) => v.length >= 8);
    const looksSecret = /SECRET|TOKEN|PASSWORD|_KEY$|_SID$|^MONGODB_URL$|^AMQP_URL$/i;
    for (const map of ofKind(manifests, "ConfigMap")) {
      for (const [key, value] of Object.entries(map.data ?? {})) {
        expect(key, `ConfigMap ${map.metadata.name}`).not.toMatch(looksSecret);
        expect(value, `ConfigMap ${map.metadata.name} ${key}`).not.toMatch(/:\/\/[^/@\s]+:[^/@\s]+@/);
        for (const secret of secretValues) expect(value.includes(secret), `ConfigMap ${map.metadata.name} ${key} holds a Secret's value`).toBe(false);
      }
    }
    for (const deployment of ofKind(manifests, "Deployment")) {
      for (const env of containerOf(deployment).env as { name: string; value?: string; valueFrom?: unknown }[]) {
        if (looksSecret.test(env.name)) expect(env.valueFrom, `${deployment.metadata.name} ${env.name}`).toBeDefined();
      }
    }
  });

  it("lets a pod drain for longer than the preStop wait plus the bound its process prints", async () => {
    const manifests = await rendered;
    const [config] = ofKind(manifests, "ConfigMap");
    const rpcTimeoutMs = Number(config!.data!.RPC_TIMEOUT_MS);
    expect(rpcTimeoutMs).toBeGreaterThan(0);
    for (const deployment of ofKind(manifests, "Deployment")) {
      const pod = deployment.spec.template.spec;
      const [sleep, seconds] = containerOf(deployment).lifecycle.preStop.exec.command as string[];
      expect(sleep).toBe("sleep");
      // The bound its process prints at start (`payrail start`), for the role it runs.
      const role = containerOf(deployment).env.find((e: { name: string }) => e.name === "SERVICES").value as string;
      const drainMs = drainBoundMs({ rpcTimeoutMs, drainDelayMs: Number(config!.data!.DRAIN_DELAY_MS ?? 0), gateway: role === "gateway", domain: role !== "gateway" });
      expect(pod.terminationGracePeriodSeconds, deployment.metadata.name).toBeGreaterThan(Number(seconds) + drainMs / 1000);
    }
  });

  it("rolls out without going below the replica count", async () => {
    for (const deployment of ofKind(await rendered, "Deployment")) {
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable, deployment.metadata.name).toBe(0);
    }
  });

  it("gives the gateway a Service and a CPU autoscaler, and no other role a Service that takes traffic", async () => {
    const manifests = await rendered;
    const gateway = deploymentOf(manifests, "gateway");
    const traffic = ofKind(manifests, "Service").filter((s) => s.spec.clusterIP !== "None");
    expect(traffic.map(componentOf)).toEqual(["gateway"]);
    expect(traffic[0]!.spec.ports[0].targetPort).toBe("http");
    const [hpa] = ofKind(manifests, "HorizontalPodAutoscaler");
    expect(hpa!.spec.scaleTargetRef.name).toBe(gateway.metadata.name);
    expect(hpa!.spec.metrics[0].resource.name).toBe("cpu");
    expect(gateway.spec.replicas).toBeUndefined();
  });
});

describe.skipIf(!helm && !required)("the Helm chart's options", () => {
  it("creates no NetworkPolicy, KEDA or operator resource unless asked", async () => {
    const kinds = new Set((await template()).map((m) => m.kind));
    for (const kind of ["NetworkPolicy", "ScaledObject", "TriggerAuthentication", "ServiceMonitor", "User", "Permission", "Exchange", "Vhost", "Ingress"]) expect(kinds).not.toContain(kind);
  });

  it("with NetworkPolicies: each role reaches the broker, the domain services the store, and only the gateway takes traffic", async () => {
    const manifests = await template("-f", FULL);
    const policies = ofKind(manifests, "NetworkPolicy");
    for (const component of SERVICE_NAMES) {
      const labels = deploymentOf(manifests, component).spec.template.metadata.labels as Record<string, string>;
      const own = policies.filter((p) => selects(p.spec.podSelector.matchLabels, labels));
      expect(own, component).toHaveLength(1);
      const policy = own[0]!.spec;
      expect(policy.policyTypes).toEqual(["Ingress", "Egress"]);
      const egressPorts = (policy.egress as { ports?: { port: number }[] }[]).flatMap((rule) => (rule.ports ?? []).map((p) => p.port));
      expect(egressPorts).toContain(5671);
      expect(egressPorts.includes(27017), `${component} reaches the store`).toBe(component !== "gateway");
      const ingressPorts = (policy.ingress as { ports: { port: string }[] }[]).flatMap((rule) => rule.ports.map((p) => p.port));
      expect(ingressPorts.sort()).toEqual(component === "gateway" ? ["http", "metrics"] : ["metrics"]);
    }
  });

  it("with KEDA: one ScaledObject per domain service on its RPC queue, authenticated as that service, replicas left to it", async () => {
    const manifests = await template("-f", FULL);
    const scaled = ofKind(manifests, "ScaledObject");
    const auths = new Map(ofKind(manifests, "TriggerAuthentication").map((a) => [a.metadata.name, a]));
    expect(scaled.map(componentOf).sort()).toEqual([...DOMAIN].sort());
    for (const object of scaled) {
      const service = componentOf(object)!;
      const deployment = deploymentOf(manifests, service);
      expect(object.spec.scaleTargetRef.name).toBe(deployment.metadata.name);
      expect(deployment.spec.replicas).toBeUndefined();
      const [trigger] = object.spec.triggers;
      expect(trigger).toMatchObject({ type: "rabbitmq", metadata: { queueName: rpcQueueOf(service), mode: "QueueLength" } });
      const auth = auths.get(trigger.authenticationRef.name)!;
      const amqpUrl = containerOf(deployment).env.find((e: { name: string }) => e.name === "AMQP_URL").valueFrom.secretKeyRef;
      expect(auth.spec.secretTargetRef).toEqual([{ parameter: "host", name: amqpUrl.name, key: amqpUrl.key }]);
    }
  });

  it("with the topology operator: the users, permissions and exchanges of deploy/rabbitmq/definitions.json, on the chart's vhost", async () => {
    const manifests = await template("-f", FULL);
    const definitions = readDefinitions() as ReturnType<typeof readDefinitions> & { exchanges: { name: string; type: string; durable: boolean }[] };
    const users = ofKind(manifests, "User");
    expect(users.map(componentOf).sort()).toEqual(definitions.users.map((u) => u.name.replace(/^payrail-/, "")).sort());
    const permissions = ofKind(manifests, "Permission");
    for (const grant of definitions.permissions) {
      const component = grant.user.replace(/^payrail-/, "");
      const permission = permissions.find((p) => componentOf(p) === component)!;
      expect(permission.spec).toMatchObject({ vhost: "payrail", permissions: { configure: grant.configure, write: grant.write, read: grant.read } });
      expect(users.map((u) => u.metadata.name)).toContain(permission.spec.userReference.name);
    }
    expect(ofKind(manifests, "Exchange").map((e) => [e.spec.name, e.spec.type, e.spec.durable])).toEqual(definitions.exchanges.map((e) => [e.name, e.type, e.durable]));
    expect(ofKind(manifests, "Vhost").map((v) => v.spec.name)).toEqual(["payrail"]);
  });

  it("declares the exchanges the code declares, with the same types", () => {
    const { exchanges } = readDefinitions() as unknown as { exchanges: { name: string; type: string; durable: boolean }[] };
    expect(exchanges.map((e) => [e.name, e.type, e.durable]).sort()).toEqual([[EVENTS_EXCHANGE, "topic", true], [RPC_EXCHANGE, "direct", true]].sort());
  });

  it("makes each component's broker login and the app's keys when no Secret is named, the key 32 bytes", async () => {
    const manifests = await template();
    const secrets = new Map(ofKind(manifests, "Secret").map((s) => [s.metadata.name, s]));
    const app = secrets.get("pr-payrail-secrets")!;
    expect(Buffer.from(Buffer.from(app.data!.SECRETS_KEY!, "base64").toString("utf8"), "base64")).toHaveLength(32);
    expect(app.metadata.annotations?.["helm.sh/resource-policy"]).toBe("keep");
    for (const component of [...SERVICE_NAMES, "cli"]) {
      const login = secrets.get(`pr-payrail-broker-${component}`)!;
      const [username, password, url] = ["username", "password", "url"].map((k) => Buffer.from(login.data![k]!, "base64").toString("utf8"));
      expect(url).toBe(`amqp://payrail-${component}:${password}@payrail-rabbitmq.rabbitmq.svc:5672/payrail`);
      expect(username).toBe(`payrail-${component}`);
    }
  });

  it("refuses a latest image, a secret-looking setting in the ConfigMap, and a grace period within the drain bound", async () => {
    expect(await refusal("--set", "image.tag=latest")).toMatch(/latest/);
    expect(await refusal("--set", "config.DWOLLA_SECRET=x")).toMatch(/config.DWOLLA_SECRET looks secret/);
    expect(await refusal("--set", "drain.terminationGracePeriodSeconds=12")).toMatch(/must exceed/);
    // Enough for a gateway (5 s preStop + 15 s), not for a domain service, whose handlers may await a second RPC deadline (5 + 25 s).
    expect(await refusal("--set", "drain.terminationGracePeriodSeconds=22")).toMatch(/must exceed preStopSeconds \+ the (?!gateway)\w+'s drain bound \(30 s\)/);
    expect(await refusal("--set", "components.payments.resources=null")).toMatch(/components.payments.resources.requests/);
    expect(ofKind(await template("--set", "indexes.enabled=false"), "Job")).toEqual([]);
  });
});
