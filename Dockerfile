# syntax=docker/dockerfile:1

# Build: compile TypeScript (with the Swagger plugin) to dist/, and the console to dist/console.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY migrations ./migrations
COPY web ./web
RUN npm run build

# Production dependencies only. The embedded PostgreSQL binaries are optional dependencies and
# are left out: in a container the service always talks to the server named by DATABASE_URL.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts --omit=dev --omit=optional

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=9091 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
USER node
EXPOSE 9091
CMD ["node", "dist/src/main.js"]
