# syntax=docker/dockerfile:1
# Ecclesia in a container: a release build, then a small Debian runtime running as a
# non-root user. The datasets are not in the image: mount them at /data (read-only) and
# the store (built generations, vector cache, embedded task state) at /var/lib/ecclesia.
#
#   docker build -t ecclesia .
#   docker run --rm -v $PWD/../shared/data:/data:ro -v ecclesia-store:/var/lib/ecclesia \
#       -p 8080:8080 ecclesia serve --listen 0.0.0.0:8080 --anonymous
#
# compose.yaml runs two replicas on PostgreSQL and Redis behind HAProxy.

FROM rust:1.95-bookworm AS build
WORKDIR /src
# Dependencies first, so that a source change does not rebuild them.
COPY Cargo.toml Cargo.lock ./
COPY crates ./crates
COPY fuzz/Cargo.toml ./fuzz/Cargo.toml
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p ecclesia \
    && install -D -m 0755 target/release/ecclesia /out/ecclesia

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/ecclesia --shell /usr/sbin/nologin ecclesia \
    && mkdir -p /var/lib/ecclesia/store /data \
    && chown -R ecclesia /var/lib/ecclesia
COPY --from=build /out/ecclesia /usr/local/bin/ecclesia
USER 10001:10001
WORKDIR /var/lib/ecclesia
ENV ECCLESIA_STORE=/var/lib/ecclesia/store \
    ECCLESIA_DATA=/data \
    ECCLESIA_LISTEN=0.0.0.0:8080 \
    ECCLESIA_LOG_JSON=1
EXPOSE 8080
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/ecclesia"]
CMD ["serve"]
