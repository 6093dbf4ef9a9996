// quantization_config both ways (docs/storage.md, "Quantized graphs"): Qdrant's gRPC messages in
// REST form for the service, which keeps what Quiver applies and refuses the rest by name (product
// and turbo quantization, the binary encodings it lacks), and the catalog's setting back out.

import { QuiverError } from '../../../shared/errors.js';
import type { BinaryQuantization__Output } from '../../../shared/grpc/generated/qdrant/BinaryQuantization.js';
import type { Memory__Output } from '../../../shared/grpc/generated/qdrant/Memory.js';
import type { QuantizationConfig, QuantizationConfig__Output } from '../../../shared/grpc/generated/qdrant/QuantizationConfig.js';
import type { QuantizationConfigDiff__Output } from '../../../shared/grpc/generated/qdrant/QuantizationConfigDiff.js';
import type { QuantizationConfig as QuantizationIn, QuantizationConfigDiff as QuantizationDiffIn } from '../../../shared/schemas/collections.js';
import type { QuantizationConfig as Quantization } from '../../../shared/types.js';
import { opt } from '../../../shared/grpc/messages/common.js';

const MEMORY_IN = { Cold: 'cold', Cached: 'cached', Pinned: 'pinned' } as const;
export const MEMORY_OUT = { cold: 'Cold', cached: 'Cached', pinned: 'Pinned' } as const;
const ENCODING_IN = { OneBit: 'one_bit', TwoBits: 'two_bits', OneAndHalfBits: 'one_and_half_bits' } as const;
const QUERY_ENCODING_IN = { Default: 'default', Binary: 'binary', Scalar4Bits: 'scalar4bits', Scalar8Bits: 'scalar8bits' } as const;
const QUERY_ENCODING_OUT = { default: 'Default', binary: 'Binary', scalar4bits: 'Scalar4Bits', scalar8bits: 'Scalar8Bits' } as const;

export function memoryIn(m: Memory__Output | undefined): 'cold' | 'cached' | 'pinned' | undefined {
  return m === undefined || m === 'MemoryUnknown' ? undefined : MEMORY_IN[m];
}

function binaryIn(b: BinaryQuantization__Output): Extract<QuantizationIn, { binary: unknown }>['binary'] {
  const setting = b.query_encoding?.setting;
  return {
    ...opt('always_ram', b.always_ram),
    ...opt('memory', memoryIn(b.memory)),
    ...opt('encoding', b.encoding === undefined ? undefined : ENCODING_IN[b.encoding]),
    ...opt('query_encoding', setting === undefined ? undefined : QUERY_ENCODING_IN[setting]),
  };
}

/** A QuantizationConfig message in REST form; undefined when absent. */
export function quantizationIn(q: QuantizationConfig__Output | undefined): QuantizationIn | undefined {
  if (q === undefined || q.quantization === undefined) return undefined;
  if (q.quantization === 'product') return { product: q.product ?? {} };
  if (q.quantization === 'turboquant') return { turbo: q.turboquant ?? {} };
  if (q.quantization === 'binary') return { binary: binaryIn(q.binary ?? {}) };
  const s = q.scalar ?? {};
  if (s.type !== 'Int8') throw QuiverError.badInput('Wrong input: scalar quantization needs type Int8');
  return { scalar: { type: 'int8', ...opt('quantile', s.quantile), ...opt('always_ram', s.always_ram), ...opt('memory', memoryIn(s.memory)) } };
}

/** A QuantizationConfigDiff message in REST form ("Disabled" for disabled); undefined when absent. */
export function quantizationDiffIn(q: QuantizationConfigDiff__Output | undefined): QuantizationDiffIn | undefined {
  if (q === undefined || q.quantization === undefined) return undefined;
  if (q.quantization === 'disabled') return 'Disabled';
  return quantizationIn({ ...q, quantization: q.quantization } as QuantizationConfig__Output);
}

/** The catalog's setting as a QuantizationConfig message. */
export function quantizationOut(q: Quantization): QuantizationConfig {
  if ('scalar' in q) {
    const s = q.scalar;
    return { scalar: { type: 'Int8', ...opt('quantile', s.quantile), ...opt('always_ram', s.always_ram), ...opt('memory', s.memory === undefined ? undefined : MEMORY_OUT[s.memory as keyof typeof MEMORY_OUT]) } };
  }
  const b = q.binary;
  return {
    binary: {
      ...opt('always_ram', b.always_ram),
      ...opt('memory', b.memory === undefined ? undefined : MEMORY_OUT[b.memory as keyof typeof MEMORY_OUT]),
      ...opt('encoding', b.encoding === 'one_bit' ? 'OneBit' : undefined),
      ...opt('query_encoding', b.query_encoding === undefined ? undefined : { setting: QUERY_ENCODING_OUT[b.query_encoding] }),
    },
  };
}
