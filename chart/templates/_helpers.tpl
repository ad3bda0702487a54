{{/* Labels every object of the release carries. */}}
{{- define "kruise.labels" -}}
app.kubernetes.io/name: kruise
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "kruise.namespace" -}}
{{ .Values.installation.namespace }}
{{- end -}}

{{- define "kruise.managerImage" -}}
{{ .Values.manager.image.repository }}:{{ .Values.manager.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "kruise.daemonImage" -}}
{{ .Values.daemon.image.repository }}:{{ .Values.daemon.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "kruise.hookImage" -}}
{{- if .Values.helmHooks.image.repository -}}
{{ .Values.helmHooks.image.repository }}:{{ .Values.helmHooks.image.tag | default .Chart.AppVersion }}
{{- else -}}
{{ include "kruise.managerImage" . }}
{{- end -}}
{{- end -}}

{{/* True when a feature gate is switched on in .Values.featureGates. */}}
{{- define "kruise.gateOn" -}}
{{- $gate := index . 0 -}}
{{- $gates := index . 1 | default "" | replace " " "" -}}
{{- if has (printf "%s=true" $gate) (splitList "," $gates) -}}true{{- end -}}
{{- end -}}

{{/* KruiseDaemon is on unless switched off explicitly (it defaults to true). */}}
{{- define "kruise.daemonEnabled" -}}
{{- $gates := .Values.featureGates | default "" | replace " " "" -}}
{{- if not (has "KruiseDaemon=false" (splitList "," $gates)) -}}true{{- end -}}
{{- end -}}

{{- define "kruise.externalCerts" -}}
{{- include "kruise.gateOn" (list "EnableExternalCerts" .Values.featureGates) -}}
{{- end -}}

{{/* The JVM invocation shared by both images: java from the jlink runtime in /opt/java. */}}
{{- define "kruise.javaCommand" -}}
- /opt/java/bin/java
{{- range (splitList " " (index . 0)) }}
{{- if . }}
- {{ . | quote }}
{{- end }}
{{- end }}
- -jar
- {{ index . 1 }}
{{- end -}}

{{/* Container security settings shared by the manager and the hook. */}}
{{- define "kruise.restrictedContainer" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
runAsUser: 65534
runAsGroup: 65534
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}
