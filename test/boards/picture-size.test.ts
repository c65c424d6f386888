import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE, pictureSize } from '../../src/boards/attachments/picture-size.js';
import { BOARD_TEST_ENV, expectCardResponse, expectError, expectStatus, makeAttachment, makeTeam } from '../board-factories.js';
import { useTestApp } from '../helper.js';
import { animatedWebp, gif, jpeg, png } from './pictures.js';

/*
 * Pictures shown to every viewer (avatars, covers) have a size limit read from their headers
 * (issue #44, item 11): a 20,000 × 20,000 PNG, a 50,000² header-only PNG and 2 MB of large GIF
 * frames were served to every viewer, whose browser decodes each frame whole.
 */
const t = useTestApp(() => BOARD_TEST_ENV);

function uploadAvatar(auth: Record<string, string>, data: Buffer, filename = 'me.png') {
  const boundary = '----tbpicture';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: 'PUT', url: '/api/account/avatar', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

/** 40 frames of 1,000 × 1,000 on a 1,000 × 1,000 canvas: 40 million pixels, the limit, in about 0.2 MB. */
const AT_LIMIT_GIF = gif(1000, 1000, Array.from({ length: 40 }, () => [1000, 1000] as [number, number]), 5000);
/** 2 MB of GIF: 64 frames of 4,000 × 4,000 (1 billion pixels), each with 31 KB of image data. */
const LARGE_FRAMES_GIF = gif(4000, 4000, Array.from({ length: 64 }, () => [4000, 4000] as [number, number]), 31_000);

describe('pictureSize reads sizes from headers alone', () => {
  it('PNG (and APNG frames), header-only PNG, GIF frames, JPEG with its frame header past a large EXIF segment, animated WebP', () => {
    expect(pictureSize(png(20_000, 20_000), 'image/png')).toMatchObject({ width: 20_000, height: 20_000, frames: 1, pixels: 400_000_000 });
    expect(pictureSize(png(50_000, 50_000, { headerOnly: true }), 'image/png')).toMatchObject({ width: 50_000, pixels: 2_500_000_000 });
    expect(pictureSize(png(1000, 1000, { frames: [[1000, 1000], [1000, 1000], [500, 500]] }), 'image/png')).toMatchObject({ frames: 3, pixels: 2_250_000 });
    expect(LARGE_FRAMES_GIF.length).toBeGreaterThan(1.9 * 1024 * 1024);
    expect(LARGE_FRAMES_GIF.length).toBeLessThan(2 * 1024 * 1024);
    expect(pictureSize(LARGE_FRAMES_GIF, 'image/gif')).toMatchObject({ width: 4000, height: 4000, frames: 64, pixels: 1_024_000_000 });
    expect(pictureSize(gif(100, 100, [[9000, 10]]), 'image/gif')).toMatchObject({ width: 100, largestSide: 9000 });
    expect(pictureSize(jpeg(8001, 600, 40_000), 'image/jpeg')).toMatchObject({ width: 8001, height: 600 });
    expect(pictureSize(animatedWebp(2000, 2000, Array.from({ length: 20 }, () => [2000, 2000] as [number, number])), 'image/webp')).toMatchObject({ frames: 20, pixels: 80_000_000 });
    expect(pictureSize(Buffer.from('GIF89a'), 'image/gif')).toBeNull();
  });
});

describe('PUT /api/account/avatar refuses pictures too large to show (400), and keeps the one you had', () => {
  it(`refuses more than ${MAX_PICTURE_SIDE} pixels a side or ${MAX_PICTURE_PIXELS / 1e6} megapixels (frames added up), naming the size and the limits`, async () => {
    const team = await makeTeam(t);
    const auth = team.keys.member.auth;
    const limits = /may be at most 8000 pixels a side and 40 megapixels \(an animation's frames added up\)$/;
    expectError(await uploadAvatar(auth, png(20_000, 20_000)), 400, /^file: the picture is 20000 × 20000 pixels; an avatar may be at most/);
    expectError(await uploadAvatar(auth, png(50_000, 50_000, { headerOnly: true })), 400, limits);
    expectError(await uploadAvatar(auth, LARGE_FRAMES_GIF, 'frames.gif'), 400, /^file: the picture has 1024\.0 megapixels in 64 frames; an avatar may be at most/);
    expectError(await uploadAvatar(auth, gif(100, 100, [[100, 100], [9000, 10]]), 'wide.gif'), 400, /^file: the picture is 100 × 100 pixels with a frame 9000 pixels wide or high;/);
    expectError(await uploadAvatar(auth, jpeg(8001, 600, 40_000), 'photo.jpg'), 400, /^file: the picture is 8001 × 600 pixels;/);
    expectError(await uploadAvatar(auth, png(8000, 5001)), 400, /^file: the picture has 40\.0 megapixels;/);
    expectError(await uploadAvatar(auth, animatedWebp(2000, 2000, Array.from({ length: 20 }, () => [2000, 2000] as [number, number])), 'a.webp'), 400, /^file: the picture has 80\.0 megapixels in 20 frames;/);
    expectError(await uploadAvatar(auth, Buffer.from('GIF89a'), 'cut.gif'), 400, /^file: the picture's size cannot be read from its header/);
    expect((await team.as.member.get('/api/account/avatar')).json()).toEqual({ avatarUrl: null });

    // At the limits: taken.
    expectStatus(await uploadAvatar(auth, png(8000, 5000)), 200);
    expectStatus(await uploadAvatar(auth, AT_LIMIT_GIF, 'at-limit.gif'), 200);
    expectStatus(await uploadAvatar(auth, jpeg(640, 480, 40_000), 'photo.jpg'), 200);
  }, 180_000);
});

describe('PUT /api/cards/{id}/cover refuses an attachment too large to show on the board (400); it stays an attachment', () => {
  it('refuses a 20,000² PNG, a header-only 50,000² PNG and 2 MB of large GIF frames; takes a picture within the limits', async () => {
    const team = await makeTeam(t, { cards: 1 });
    const [card] = team.cards;
    for (const [name, bytes, message] of [
      ['huge.png', png(20_000, 20_000), /^attachmentId: the picture is 20000 × 20000 pixels; a cover may be at most 8000 pixels a side and 40 megapixels/],
      ['header.png', png(50_000, 50_000, { headerOnly: true }), /^attachmentId: the picture is 50000 × 50000 pixels; a cover may be/],
      ['frames.gif', LARGE_FRAMES_GIF, /^attachmentId: the picture has 1024\.0 megapixels in 64 frames; a cover may be/],
    ] as const) {
      const attachment = await makeAttachment(t.app, team.keys.member.auth, card.id, name, bytes);
      expectError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: attachment.id }), 400, message);
    }
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json().coverAttachmentId).toBeNull();
    const fine = await makeAttachment(t.app, team.keys.member.auth, card.id, 'fine.gif', AT_LIMIT_GIF);
    expect(expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: fine.id }), 200).coverAttachmentId).toBe(fine.id);
  }, 180_000);
});
