/** Small real PNG and JPEG images for tests and benchmarks, made with sharp. @module */
import sharp from 'sharp';
import type { ImageInput } from '../../src/llm/types';

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
 * A screenshot-like image (flat bands with some detail, so PNG compresses as real screenshots do) as an
 * {@link ImageInput}. Default 64x40 PNG.
 */
export async function makeImage(options: MakeImageOptions = {}): Promise<ImageInput> {
  const { width = 64, height = 40, format = 'png', seed = 0 } = options;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const band = Math.floor(y / 24) + seed;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const detail = (x * 7 + y * 13 + seed * 31) % 97 < 3 ? 90 : 0;
      pixels[i] = (band * 53 + detail) & 255;
      pixels[i + 1] = (band * 101 + seed * 17) & 255;
      pixels[i + 2] = (240 - detail) & 255;
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
