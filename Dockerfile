# syntax=docker/dockerfile:1
# The Leaseboard image for people with Docker: `docker build -t leaseboard .`
#
# NOT BUILT HERE: the project's machines have no Docker daemon and no registry,
# so CI builds the same image with buildah from scratch (scripts/build-image.ts,
# `npm run build:image`) and checks that one (scripts/image-check.ts). Keep the
# two alike: the package in /opt/leaseboard, node at /usr/local/bin/node, the
# entrypoint node on the package's bin, default command `start`, user 10001,
# HOST=0.0.0.0, port 3000, the same labels (scripts/dockerfile.unit.test.ts compares them).
#
#   docker run -e DATABASE_URL=postgres://… -p 3000:3000 leaseboard
#   docker run -e DATABASE_URL=postgres://… leaseboard migrate
#   docker run -e DATABASE_URL=postgres://… leaseboard run --lease nightly -- /path/to/program

# The dashboard is built with its base path baked in: --build-arg LEASEBOARD_BASE_PATH=/ops/leaseboard.
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ARG LEASEBOARD_BASE_PATH
RUN npm run build:packages -- --only server \
 && mkdir /leaseboard \
 && cd packages/server/dist \
 && tar -xzf "$(npm pack --silent --pack-destination /tmp | tail -n 1 | sed 's|^|/tmp/|')" -C /leaseboard --strip-components=1 --no-same-owner

FROM node:20-bookworm-slim
RUN groupadd --gid 10001 leaseboard \
 && useradd --uid 10001 --gid 10001 --home-dir /tmp --shell /usr/sbin/nologin --no-create-home leaseboard
COPY --from=build /leaseboard /opt/leaseboard
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="leaseboard" \
      org.opencontainers.image.description="Leaseboard: the status dashboard and the leaseboard command (start, run, scheduler, migrate, config)" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production HOST=0.0.0.0
USER 10001:10001
WORKDIR /opt/leaseboard
EXPOSE 3000
ENTRYPOINT ["/usr/local/bin/node", "/opt/leaseboard/app/bin/leaseboard.cjs"]
CMD ["start"]
