import type autocannon from 'autocannon';
import type { openPostgres } from '../src/platform/db.js';

type Prisma = ReturnType<typeof openPostgres>['prisma'];

/**
 * The boards the board benchmarks run on (bench/boards.ts, bench/compare-trees.ts): five users, a
 * 200-card board (10 lists of 20) and a 1,000-card one (10 of 100), with what real cards carry.
 */
export async function seedBoards(prisma: Prisma) {
  const users = await Promise.all(
    Array.from({ length: 5 }, (_, i) => prisma.user.create({ data: { email: `bench${i}-${Date.now()}@example.com`, name: `Bench User ${i}` } })),
  );
  const makeBoard = async (name: string, lists: number, perList: number) => {
    const board = await prisma.board.create({
      data: { name, description: 'A realistic board for the benchmark.', members: { create: users.map((u, i) => ({ userId: u.id, role: i === 0 ? 'admin' : 'member' })) } },
    });
    const listIds: number[] = [];
    const cardIds: number[] = [];
    for (let l = 0; l < lists; l++) {
      const list = await prisma.list.create({ data: { boardId: board.id, name: `List ${l + 1}`, position: l } });
      listIds.push(list.id);
      await prisma.card.createMany({
        data: Array.from({ length: perList }, (_, p) => ({
          boardId: board.id,
          listId: list.id,
          title: `Card ${l + 1}.${p + 1}: a typical task title of some length`,
          description: 'Some description text that a real card would carry, a sentence or two long. '.repeat(2),
          position: p,
        })),
      });
    }
    cardIds.push(...(await prisma.card.findMany({ where: { boardId: board.id }, select: { id: true } })).map((c) => c.id));
    await seedParts(prisma, board.id, cardIds, users.map((u) => u.id));
    return { board: board.id, listIds, cardIds };
  };
  const small = await makeBoard('Bench board (200 cards)', 10, 20);
  const big = await makeBoard('Bench board (1,000 cards)', 10, 100);
  return { userId: users[0]!.id, small: small.board, big: big.board, smallLists: small.listIds, smallCards: small.cardIds };
}

/**
 * What real cards carry: 8 labels on the board (0-2 per card), an assignee on half the cards, a
 * 3-item checklist on a quarter, 2 comments on a fifth, 2 custom fields with values on a third.
 */
async function seedParts(prisma: Prisma, boardId: number, cardIds: number[], userIds: number[]) {
  const colors = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime'] as const;
  const labels = await Promise.all(colors.map((color, i) => prisma.label.create({ data: { boardId, name: `Label ${i + 1}`, color } })));
  const fields = [
    await prisma.customField.create({ data: { boardId, name: 'Estimate', type: 'number' } }),
    await prisma.customField.create({ data: { boardId, name: 'Priority', type: 'list', options: ['low', 'normal', 'high'] } }),
  ];
  await prisma.cardLabel.createMany({
    data: cardIds.flatMap((cardId, i) => labels.slice(i % 8, (i % 8) + (i % 3)).map((l) => ({ cardId, labelId: l.id }))),
  });
  await prisma.cardAssignee.createMany({ data: cardIds.filter((_, i) => i % 2 === 0).map((cardId, i) => ({ cardId, userId: userIds[i % userIds.length]! })) });
  await prisma.cardFieldValue.createMany({
    data: cardIds.filter((_, i) => i % 3 === 0).flatMap((cardId, i) => [
      { cardId, fieldId: fields[0]!.id, value: i % 13 },
      { cardId, fieldId: fields[1]!.id, value: ['low', 'normal', 'high'][i % 3]! },
    ]),
  });
  for (const [i, cardId] of cardIds.entries()) {
    if (i % 4 === 0) {
      await prisma.checklist.create({
        data: { cardId, name: 'Steps', position: 0, items: { create: [0, 1, 2].map((position) => ({ name: `Step ${position + 1}`, checked: position === 0, position })) } },
      });
    }
  }
  await prisma.comment.createMany({
    data: cardIds.filter((_, i) => i % 5 === 0).flatMap((cardId) => [0, 1].map((n) => ({ cardId, authorId: userIds[n]!, authorName: 'Bench', text: `Comment ${n + 1}` }))),
  });
}

/**
 * autocannon's request for a random card move on a seeded board: a card to a random list, half of them to its top
 * (`prefix`: /api for the app, /floor for bench/floor-server.ts).
 */
export function randomMoveOn(prefix: string, board: { lists: number[]; cards: number[] }) {
  return (req: autocannon.Request) => {
    const card = board.cards[Math.floor(Math.random() * board.cards.length)]!;
    const listId = board.lists[Math.floor(Math.random() * board.lists.length)]!;
    const body = Math.random() < 0.5 ? { listId, position: 0 } : { listId };
    return { ...req, path: `${prefix}/cards/${card}/move`, body: JSON.stringify(body) };
  };
}
