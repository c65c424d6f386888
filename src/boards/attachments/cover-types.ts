/** The attachment types a cover may be: pictures every browser draws (the type is sniffed from the bytes at upload). */
export const COVER_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
