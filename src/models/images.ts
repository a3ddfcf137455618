/**
 * Images on their way to a model: the media type read from the bytes, optional downscaling (sharp) to save
 * tokens, and base64 for the wire.
 * @module
 */
import { LLMError, type ImageInput } from './types';

/** An image ready for the wire. */
export interface EncodedImage {
  readonly mediaType: 'image/png' | 'image/jpeg';
  /** The bytes, base64. */
  readonly base64: string;
}

/** Options of {@link encodeImages}. */
export interface EncodeImageOptions {
  /**
   * Downscale images whose longer side exceeds this many pixels (aspect kept, same format). Off by default:
   * images go as given. It saves tokens where the provider bills by image size (Gemini counts 768-px tiles),
   * not bytes: a resized PNG screenshot can be larger than the original (anti-aliasing), and sharp takes
   * tens of ms per image (bench/llm.bench.ts).
   */
  readonly downscale?: number;
}

/** Encodes images in order: media type from the bytes (PNG/JPEG signature, else the declared one), base64. */
export async function encodeImages(
  images: readonly ImageInput[],
  options: EncodeImageOptions = {},
): Promise<EncodedImage[]> {
  return Promise.all(images.map((image) => encodeImage(image, options)));
}

/**
 * {@link encodeImages} for an adapter's call: a bad image rejects with a non-retryable {@link LLMError} that
 * names the provider and the model.
 */
export async function encodeCallImages(
  images: readonly ImageInput[] | undefined,
  options: EncodeImageOptions & { readonly provider: string; readonly model: string },
): Promise<EncodedImage[]> {
  if (!images?.length) return [];
  try {
    return await encodeImages(images, options);
  } catch (error) {
    const { provider, model } = options;
    const reason = error instanceof Error ? error.message : String(error);
    throw new LLMError(`${provider} model ${model}: ${reason}`, { provider, model, isRetryable: false, cause: error });
  }
}

async function encodeImage(image: ImageInput, options: EncodeImageOptions): Promise<EncodedImage> {
  const mediaType = sniffMediaType(image.data) ?? image.mediaType;
  if (mediaType !== 'image/png' && mediaType !== 'image/jpeg') {
    const label = image.name ? ` ${image.name}` : '';
    throw new TypeError(`image${label} is neither PNG nor JPEG (declared ${String(mediaType)})`);
  }
  const data = options.downscale ? await downscale(image.data, mediaType, options.downscale) : image.data;
  return { mediaType, base64: toBase64(data) };
}

/** `image/png` or `image/jpeg` from the file signature, `undefined` for anything else. */
export function sniffMediaType(data: Uint8Array): EncodedImage['mediaType'] | undefined {
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return undefined;
}

async function downscale(data: Uint8Array, mediaType: EncodedImage['mediaType'], maxSide: number): Promise<Uint8Array> {
  // Loaded on first use: sharp is a native module, and most callers never downscale.
  const { default: sharp } = await import('sharp');
  const { width = 0, height = 0 } = await sharp(data).metadata();
  if (Math.max(width, height) <= maxSide) return data;
  const resized = sharp(data).resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  return mediaType === 'image/png' ? resized.png().toBuffer() : resized.jpeg({ quality: 85 }).toBuffer();
}

function toBase64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}
