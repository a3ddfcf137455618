/**
 * The two configs' columns as Hugging Face `datasets` features, in the three forms a dataset needs: the JSON that
 * `datasets` writes into the Parquet schema metadata (`Features.to_dict()`), the YAML list of the dataset card
 * (`Features._to_yaml_list()`), and the Parquet schema itself (what Arrow writes for those types).
 * @module
 */
import { PROVENANCE_FIELDS, type Provenance } from '../rows/provenance';

/** One element of a Parquet schema (the Thrift `SchemaElement` fields the export uses). */
export interface SchemaElement {
  readonly name: string;
  readonly type?: 'BOOLEAN' | 'INT64' | 'BYTE_ARRAY';
  readonly repetition_type?: 'OPTIONAL' | 'REPEATED';
  readonly converted_type?: 'UTF8' | 'LIST';
  readonly num_children?: number;
}

/** A `datasets` feature type, as far as the export uses them. */
export type Feature =
  | { readonly kind: 'value'; readonly dtype: 'string' | 'int64' | 'bool' | 'binary' }
  | { readonly kind: 'image' }
  | { readonly kind: 'list'; readonly of: Feature }
  | { readonly kind: 'struct'; readonly fields: Features };

/** Named features in column order. */
export type Features = ReadonlyArray<readonly [string, Feature]>;

const string: Feature = { kind: 'value', dtype: 'string' };
const int64: Feature = { kind: 'value', dtype: 'int64' };
const bool: Feature = { kind: 'value', dtype: 'bool' };
const image: Feature = { kind: 'image' };
const list = (of: Feature): Feature => ({ kind: 'list', of });

const PROVENANCE_TYPES: Record<keyof Provenance, Feature> = {
  run_id: string,
  task_id: string,
  episode_id: string,
  site: string,
  task_kind: string,
  proposer_model: string,
  agent_model: string,
  judge_model: string,
  judge_variant: string,
  judge_prompt_sha256: string,
  verdict: bool,
  verifier_ok: bool,
  library_version: string,
  origin: string,
  parent_task_id: string,
  agent_setup: string,
  judge_setup: string,
  label_source: string,
  // 1 for the run dir itself, n for `<run>/_tries/<n>/`: a row of a picked try past the first says which it is.
  try: int64,
};
const provenanceFeatures: Features = PROVENANCE_FIELDS.map((name) => [name, PROVENANCE_TYPES[name]] as const);

/** Config `steps`: one training step in chat form (ms-swift / LLaMA-Factory), its screenshot, its provenance. */
export const STEP_FEATURES: Features = [
  ['messages', list({ kind: 'struct', fields: [['role', string], ['content', string]] })],
  ['images', list(image)],
  ['step', int64],
  ...provenanceFeatures,
];

/** Config `episodes`: one episode, success or failure, with its evidence, verdict and provenance. */
export const EPISODE_FEATURES: Features = [
  ['instruction', string],
  ['start_path', string],
  ['outcome', string],
  ['steps', int64],
  ['actions', list(string)],
  ['screenshots', list(image)],
  ['final_screenshot', image],
  ['answer', string],
  ['error', string],
  ['requests', list(string)],
  ['data_changes', list(string)],
  ['judge_reasoning', string],
  ...provenanceFeatures,
];

/**
 * Config `tasks`: a task set ready for RL, each proposed task with the verifier written for it (the claim as JSON
 * text), where it starts, and the episode and model it was written from.
 */
export const TASK_FEATURES: Features = [
  ['task_id', string],
  ['site', string],
  ['task_kind', string],
  ['instruction', string],
  ['start_path', string],
  ['verifier', string],
  ['written_from_episode_id', string],
  ['writer_model', string],
  ['run_id', string],
];

/** `Features.to_dict()` of `datasets`: what goes into the Parquet metadata under `huggingface`. */
export function featuresToDict(features: Features): Record<string, unknown> {
  return Object.fromEntries(features.map(([name, f]) => [name, featureToDict(f)]));
}

function featureToDict(f: Feature): unknown {
  switch (f.kind) {
    case 'value':
      return { dtype: f.dtype, _type: 'Value' };
    case 'image':
      return { _type: 'Image' };
    case 'list':
      return { feature: featureToDict(f.of), _type: 'List' };
    case 'struct':
      return featuresToDict(f.fields);
  }
}

/** The Parquet key-value metadata `datasets` reads the features from: `huggingface` = `{"info": {"features": ...}}`. */
export function huggingfaceMetadata(features: Features): { key: string; value: string } {
  return { key: 'huggingface', value: JSON.stringify({ info: { features: featuresToDict(features) } }) };
}

/** `Features._to_yaml_list()` of `datasets`: the `dataset_info.features` list of the card's front matter. */
export function featuresToYaml(features: Features): Array<Record<string, unknown>> {
  return features.map(([name, f]) => ({ name, ...featureToYaml(f) }));
}

function featureToYaml(f: Feature): Record<string, unknown> {
  switch (f.kind) {
    case 'value':
      return { dtype: f.dtype };
    case 'image':
      return { dtype: 'image' };
    case 'struct':
      return { struct: featuresToYaml(f.fields) };
    case 'list': {
      // `datasets` simplifies `list: {dtype: x}` to `list: x` and `list: {struct: [...]}` to `list: [...]`.
      const inner = featureToYaml(f.of);
      const keys = Object.keys(inner);
      if (keys.length === 1 && keys[0] === 'dtype') return { list: inner.dtype };
      if (keys.length === 1 && keys[0] === 'struct') return { list: inner.struct };
      return { list: inner };
    }
  }
}

/**
 * The Parquet schema Arrow writes for these features: nullable columns, strings as UTF8 byte arrays, lists in
 * the three-level LIST form (`<name>` / `list` / `element`), an Image as the struct `{bytes: binary, path: string}`.
 */
export function parquetSchema(features: Features): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'schema', num_children: features.length }];
  for (const [name, f] of features) out.push(...columnSchema(name, f));
  return out;
}

function columnSchema(name: string, f: Feature): SchemaElement[] {
  switch (f.kind) {
    case 'value': {
      const base = { name, repetition_type: 'OPTIONAL' } as const;
      if (f.dtype === 'string') return [{ ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8' }];
      if (f.dtype === 'binary') return [{ ...base, type: 'BYTE_ARRAY' }];
      if (f.dtype === 'int64') return [{ ...base, type: 'INT64' }];
      return [{ ...base, type: 'BOOLEAN' }];
    }
    case 'image':
      return columnSchema(name, { kind: 'struct', fields: [['bytes', { kind: 'value', dtype: 'binary' }], ['path', string]] });
    case 'struct':
      return [
        { name, repetition_type: 'OPTIONAL', num_children: f.fields.length },
        ...f.fields.flatMap(([child, cf]) => columnSchema(child, cf)),
      ];
    case 'list':
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        ...columnSchema('element', f.of),
      ];
  }
}
