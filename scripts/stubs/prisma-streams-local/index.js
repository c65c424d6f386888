'use strict';
// `prisma dev` (a local Prisma Postgres) is the only user of @prisma/streams-local, which needs Node 22.
throw new Error('@prisma/streams-local is stubbed out in this project: `prisma dev` is not supported (see package.json overrides)');
