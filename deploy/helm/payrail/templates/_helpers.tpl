{{/* The roles SERVICES can name (libs/runtime/src/config.ts, SERVICE_NAMES); the gateway first. */}}
{{- define "payrail.components" -}}
gateway checkout identity payments refunds webhooks notices ledger
{{- end }}
{{- define "payrail.domainServices" -}}
checkout identity payments refunds webhooks notices ledger
{{- end }}

{{- define "payrail.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{ else }}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}{{ end }}
{{- end }}

{{- define "payrail.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: payrail
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ include "payrail.imageTag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: include "payrail.selector" (list $ "payments") */}}
{{- define "payrail.selector" -}}
app.kubernetes.io/name: payrail
app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "payrail.imageTag" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion | toString -}}
{{- if eq $tag "latest" }}{{ fail "image.tag: \"latest\" is refused; name the version to run" }}{{ end -}}
{{- $tag -}}
{{- end }}

{{- define "payrail.image" -}}
{{- if .Values.image.digest }}{{ printf "%s@%s" .Values.image.repository .Values.image.digest }}{{ else }}{{ printf "%s:%s" .Values.image.repository (include "payrail.imageTag" .) }}{{ end }}
{{- end }}

{{- define "payrail.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "payrail.fullname" .)) -}}
{{- end }}

{{/* The broker user of a component: payrail-<component>, as in deploy/rabbitmq/definitions.json. */}}
{{- define "payrail.brokerUser" -}}
payrail-{{ . }}
{{- end }}

{{/* The Secret with a component's broker login (username, password, url): include "payrail.brokerSecretName" (list $ "payments") */}}
{{- define "payrail.brokerSecretName" -}}
{{- $ := index . 0 }}{{ $component := index . 1 -}}
{{- index $.Values.broker.existingSecrets $component | default (printf "%s-broker-%s" (include "payrail.fullname" $) $component) -}}
{{- end }}

{{- define "payrail.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}{{ .Values.serviceAccount.name | default (include "payrail.fullname" .) }}{{ else }}{{ .Values.serviceAccount.name | default "default" }}{{ end -}}
{{- end }}

{{/* The RPC deadline in whole seconds (RPC_TIMEOUT_MS, rounded up). */}}
{{- define "payrail.rpcDeadlineSeconds" -}}
{{- $ms := .Values.config.RPC_TIMEOUT_MS | default "10000" | int -}}
{{- div (add $ms 999) 1000 -}}
{{- end }}

{{/*
  The drain bound a component's process prints at start ("drains within N s on SIGTERM"), in
  whole seconds, as libs/runtime/src/lifecycle.ts counts it: the gateway DRAIN_DELAY_MS + the RPC
  deadline (its requests in flight) + 5 s; a domain service two RPC deadlines (a handler in
  flight may await another service's call begun just before its caller's deadline) + 5 s.
  Called with (list $ component).
*/}}
{{- define "payrail.drainSeconds" -}}
{{- $ := index . 0 }}{{ $component := index . 1 -}}
{{- $rpc := include "payrail.rpcDeadlineSeconds" $ | int -}}
{{- if eq $component "gateway" -}}
{{- $delayMs := $.Values.config.DRAIN_DELAY_MS | default "0" | int -}}
{{- add (div (add $delayMs 999) 1000) $rpc 5 -}}
{{- else -}}
{{- add (mul 2 $rpc) 5 -}}
{{- end -}}
{{- end }}

{{/*
  terminationGracePeriodSeconds of a component: longer than the preStop wait plus its process's
  drain bound, so a pod is never killed while it still drains (requests in flight, leases being
  given back). Called with (list $ component).
*/}}
{{- define "payrail.gracePeriod" -}}
{{- $ := index . 0 }}{{ $component := index . 1 -}}
{{- $floor := add (int $.Values.drain.preStopSeconds) (include "payrail.drainSeconds" . | int) -}}
{{- if $.Values.drain.terminationGracePeriodSeconds -}}
{{- $grace := int $.Values.drain.terminationGracePeriodSeconds -}}
{{- if le $grace $floor }}{{ fail (printf "drain.terminationGracePeriodSeconds (%d) must exceed preStopSeconds + the %s's drain bound (%d s)" $grace $component $floor) }}{{ end -}}
{{- $grace -}}
{{- else -}}
{{- add $floor 5 -}}
{{- end -}}
{{- end }}

{{/* Secret env of a component: which keys of the app Secret it reads (least privilege). */}}
{{- define "payrail.secretKeys" -}}
{{- $keys := dict
  "gateway" (list "ADMIN_TOKEN")
  "checkout" (list "SECRETS_KEY" "MONGODB_URL")
  "identity" (list "SECRETS_KEY" "MONGODB_URL" "TWILIO_ACCOUNT_SID" "TWILIO_AUTH_TOKEN" "TWILIO_FROM_NUMBER")
  "payments" (list "SECRETS_KEY" "MONGODB_URL" "PLAID_CLIENT_ID" "PLAID_SECRET" "DWOLLA_KEY" "DWOLLA_SECRET" "DWOLLA_WEBHOOK_SECRET")
  "refunds" (list "SECRETS_KEY" "MONGODB_URL")
  "webhooks" (list "SECRETS_KEY" "MONGODB_URL")
  "notices" (list "SECRETS_KEY" "MONGODB_URL" "SMTP_URL")
  "ledger" (list "SECRETS_KEY" "MONGODB_URL") -}}
{{- join " " (index $keys .) -}}
{{- end }}

{{/* Keys no component can start without; the others are optional in the pod spec. */}}
{{- define "payrail.requiredSecretKeys" -}}
SECRETS_KEY MONGODB_URL ADMIN_TOKEN
{{- end }}

{{/* A previous release's Secret data (to keep generated values on upgrade), or an empty dict. */}}
{{- define "payrail.previousSecretData" -}}
{{- $ := index . 0 }}{{ $name := index . 1 -}}
{{- $old := lookup "v1" "Secret" $.Release.Namespace $name -}}
{{- toJson (($old | default dict).data | default dict) -}}
{{- end }}
