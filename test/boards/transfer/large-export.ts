const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * A Trello export with `cards` plain cards over five lists (about 170 bytes a card), written as
 * text directly: building objects and JSON.stringify costs several times more.
 */
export function plainTrelloExport(cards: number): string {
  const lists = Array.from({ length: 5 }, (_, i) => `{"id":"${hex(0xa0000 + i, 24)}","name":"List ${i}","closed":false,"pos":${i + 1}}`);
  const parts: string[] = [];
  for (let i = 0; i < cards; i++) {
    parts.push(
      `{"id":"${hex(0x5f000000 + i, 8)}${hex(i, 16)}","idList":"${hex(0xa0000 + (i % 5), 24)}","name":"Card number ${i}","desc":"Text of card ${i}","closed":false,"pos":${i},"idLabels":[],"idMembers":[]}`,
    );
  }
  return `{"id":"${hex(1, 24)}","name":"Large board","lists":[${lists.join(',')}],"cards":[${parts.join(',')}],"labels":[],"actions":[],"members":[]}`;
}
