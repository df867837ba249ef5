# syntax=docker/dockerfile:1
# Every service's image, built with the repository root as context (go.work joins pkg/ and the
# service modules). SERVICE names the directory under services/; the gateway, which also
# serves the web app, is the `gateway` target, every other service the default `service` one:
#   docker build --build-arg SERVICE=wishlist .
#   docker build --build-arg SERVICE=gateway --target gateway .
ARG SERVICE

# The web app the gateway serves (WEB_DIR). Its own stage, so Go changes do not rebuild it, and
# BuildKit skips it for every other target.
FROM node:22-bookworm-slim AS web
WORKDIR /web
ENV CI=true PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# go.work, go.work.sum and every module's go.mod and go.sum, wherever go.work lists them, and
# nothing else. This stage reruns on any change, but its output only changes with those files,
# so the `go mod download` layer below stays cached across code changes (and is shared by all
# five services).
FROM golang:1.26-bookworm AS modules
WORKDIR /src
COPY . .
RUN find . -type f ! -name go.mod ! -name go.sum ! -name go.work ! -name go.work.sum -delete \
    && find . -type d -empty -delete

FROM golang:1.26-bookworm AS build
ARG SERVICE
RUN test -n "$SERVICE" || { echo "say which service: --build-arg SERVICE=<directory under services/>" >&2; exit 1; }
WORKDIR /src
ENV GOTOOLCHAIN=local
COPY --from=modules /src/ ./
RUN go mod download
COPY pkg/ ./pkg/
COPY services/${SERVICE}/ ./services/${SERVICE}/
RUN --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -tags "disable_grpc_modules nomsgpack" -o /out/service ./services/${SERVICE}/cmd/${SERVICE}

# What every service image shares.
FROM gcr.io/distroless/static-debian12:nonroot AS runtime
# No heap-profile sampling unless PPROF_ADDR asks for a profiler (pkg/httpserver/pprof.go).
# Live streams: goroutines start at 2 KB, not at the last GC's average stack (docs/capacity.md).
ENV GODEBUG=memprofilerate=0,adaptivestackstart=0
USER nonroot:nonroot
EXPOSE 8080
# Exec form, no shell in distroless; the path is fixed because ENTRYPOINT expands no ARG.
ENTRYPOINT ["/app/service"]

# The gateway: its binary plus the built web app.
FROM runtime AS gateway
ENV WEB_DIR=/app/web
COPY --from=web /web/dist /app/web
COPY --from=build /out/service /app/service

# Any other service (the last stage, so the default target).
FROM runtime AS service
COPY --from=build /out/service /app/service
