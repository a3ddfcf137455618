/** Small real PNG and JPEG images for tests and benchmarks, made with sharp. @module */
import sharp from 'sharp';
import type { ImageInput } from '../../src/models/types';

/** Options of {@link makeImage}. */
export interface MakeImageOptions {
  readonly width?: number;
  readonly height?: number;
  /** Default `png`. */
  readonly format?: 'png' | 'jpeg';
  /** A seed that changes the picture, so images differ. Default 0. */
  readonly seed?: number;
}

/**
 * A screenshot-like image as an {@link ImageInput}: a coloured header band, then rows of "text" (seeded
 * pseudo-random dark pixels on white), so PNG compresses about as real page screenshots do (~100 KB at
 * 1280x800). Default 64x40 PNG.
 */
export async function makeImage(options: MakeImageOptions = {}): Promise<ImageInput> {
  const { width = 64, height = 40, format = 'png', seed = 0 } = options;
  const pixels = Buffer.alloc(width * height * 3);
  let state = (seed * 2654435761 + 1) >>> 0;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let y = 0; y < height; y++) {
    const header = y < height / 10;
    const textRow = y % 24 > 6 && y % 24 < 18;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const ink = !header && textRow && random() < 0.24;
      const rgb = header ? [40 + ((seed * 47) & 127), 90, 200] : ink ? [30, 30, 40] : [245, 245, 250];
      pixels.set(rgb, i);
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  const data = format === 'png' ? await image.png().toBuffer() : await image.jpeg({ quality: 80 }).toBuffer();
  return { data: new Uint8Array(data), mediaType: format === 'png' ? 'image/png' : 'image/jpeg', name: `img-${seed}.${format}` };
}

/** The base64 of an image's bytes, as the adapters put it on the wire. */
export function base64Of(image: ImageInput): string {
  return Buffer.from(image.data).toString('base64');
}
