// Quiver's own binding over hnswlib's C++ core (the headers hnswlib-node ships), for HNSW graphs
// built over quantized codes instead of float32 rows, so the graph's memory is the codes'
// (docs/storage.md, "Quantized graphs"). hnswlib takes any space through SpaceInterface: a row
// size and a distance function. Two spaces here:
//
// - int8 (scalar): each float x is stored as one byte c = round((x - offset) / alpha), clamped to
//   0..255, where [offset, offset + 255 * alpha] is the range the collection's quantile keeps. A
//   row is dim bytes and the int32 sum of its codes (for the inner product's cross terms). l2:
//   alpha^2 * sum((ca - cb)^2). ip: 1 - (dim * offset^2 + offset * alpha * (sa + sb)
//   + alpha^2 * sum(ca * cb)), the float inner product the codes stand for (hnswlib's ip space
//   is 1 - dot as well).
//   For unit-length rows (Cosine) the l2 space ranks better than ip: dequantized rows are no
//   longer unit length, and ip favours the longer ones (recall@10 0.93 against 0.74 over the same
//   codes, test/workers/index/quantized-hnsw.test.ts's data, by brute force).
// - binary: one bit per dimension, set when x > 0, in 64-bit words; the distance is the Hamming
//   distance for every metric (meant for cosine or dot over centred embeddings, as Qdrant's).
//
// The JS side gives float32 rows and queries; they are encoded here. Filters call back into JS
// per visited label, as hnswlib-node's do. Errors thrown by hnswlib become JS exceptions.

#include <napi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <memory>
#include <string>

#include "hnswlib/hnswlib.h"

namespace {

enum class Kind { Int8, Binary };
enum class Metric { L2, IP };

struct Params {
  Kind kind;
  Metric metric;
  size_t dim;
  float alpha;
  float offset;
  size_t words;  // binary: 64-bit words per row
  // An asymmetric binary search in progress (SearchKnn): its query's code buffer, by identity, and
  // the float32 query it stands for, with the sum of its magnitudes. Null otherwise.
  const void* query = nullptr;
  const float* queryFloat = nullptr;
  float queryAbsSum = 0;
};

float Int8L2(const void* a, const void* b, const void* p) {
  const Params* q = static_cast<const Params*>(p);
  const uint8_t* x = static_cast<const uint8_t*>(a);
  const uint8_t* y = static_cast<const uint8_t*>(b);
  int32_t acc = 0;
  for (size_t i = 0; i < q->dim; i++) {
    const int32_t d = static_cast<int32_t>(x[i]) - static_cast<int32_t>(y[i]);
    acc += d * d;
  }
  return q->alpha * q->alpha * static_cast<float>(acc);
}

float Int8IP(const void* a, const void* b, const void* p) {
  const Params* q = static_cast<const Params*>(p);
  const uint8_t* x = static_cast<const uint8_t*>(a);
  const uint8_t* y = static_cast<const uint8_t*>(b);
  uint32_t dot = 0;
  for (size_t i = 0; i < q->dim; i++) dot += static_cast<uint32_t>(x[i]) * static_cast<uint32_t>(y[i]);
  int32_t sx;
  int32_t sy;
  std::memcpy(&sx, x + q->dim, sizeof sx);
  std::memcpy(&sy, y + q->dim, sizeof sy);
  const float d = static_cast<float>(q->dim);
  const float ip = d * q->offset * q->offset + q->offset * q->alpha * static_cast<float>(sx + sy) + q->alpha * q->alpha * static_cast<float>(dot);
  return 1.0f - ip;
}

/**
 * The float32 query against a row of signs s (+1 where the bit is set, -1 elsewhere):
 * sum |q| - q.s, which is 0 for the row of q's own signs and ranks rows as q.s does (for unit
 * rows, as their dot product with q and their L2 distance to it do, up to the signs' precision).
 */
float SignedDot(const float* q, const uint64_t* row, const Params* p) {
  float dot = 0;
  for (size_t i = 0; i < p->dim; i++) dot += ((row[i / 64] >> (i % 64)) & 1) != 0 ? q[i] : -q[i];
  return p->queryAbsSum - dot;
}

float Hamming(const void* a, const void* b, const void* p) {
  const Params* q = static_cast<const Params*>(p);
  const uint64_t* x = static_cast<const uint64_t*>(a);
  const uint64_t* y = static_cast<const uint64_t*>(b);
  // hnswlib compares the query with graph rows, never two rows, during a search.
  if (q->query != nullptr) {
    if (a == q->query) return SignedDot(q->queryFloat, y, q);
    if (b == q->query) return SignedDot(q->queryFloat, x, q);
  }
  uint32_t bits = 0;
  for (size_t i = 0; i < q->words; i++) bits += static_cast<uint32_t>(__builtin_popcountll(x[i] ^ y[i]));
  return static_cast<float>(bits);
}

class QuantizedSpace : public hnswlib::SpaceInterface<float> {
 public:
  explicit QuantizedSpace(const Params& p) : params_(p) {}
  size_t get_data_size() override {
    return params_.kind == Kind::Int8 ? params_.dim + sizeof(int32_t) : params_.words * sizeof(uint64_t);
  }
  hnswlib::DISTFUNC<float> get_dist_func() override {
    if (params_.kind == Kind::Binary) return Hamming;
    return params_.metric == Metric::L2 ? Int8L2 : Int8IP;
  }
  void* get_dist_func_param() override { return &params_; }
  const Params& params() const { return params_; }
  Params& params() { return params_; }

  /** The stored row for a float32 vector. */
  void Encode(const float* v, uint8_t* out) const {
    if (params_.kind == Kind::Int8) {
      int32_t sum = 0;
      for (size_t i = 0; i < params_.dim; i++) {
        const float c = std::round((v[i] - params_.offset) / params_.alpha);
        // NaN fails both tests and becomes 0 (callers refuse non-finite vectors anyway).
        out[i] = static_cast<uint8_t>(c > 255.0f ? 255.0f : (c >= 0.0f ? c : 0.0f));
        sum += out[i];
      }
      std::memcpy(out + params_.dim, &sum, sizeof sum);
    } else {
      std::memset(out, 0, params_.words * sizeof(uint64_t));
      uint64_t* w = reinterpret_cast<uint64_t*>(out);
      for (size_t i = 0; i < params_.dim; i++)
        if (v[i] > 0.0f) w[i / 64] |= uint64_t{1} << (i % 64);
    }
  }

 private:
  Params params_;
};

class JsFilter : public hnswlib::BaseFilterFunctor {
 public:
  JsFilter(Napi::Env env, Napi::Function fn) : env_(env), fn_(fn) {}
  bool operator()(hnswlib::labeltype label) override {
    Napi::Value r = fn_.Call({Napi::Number::New(env_, static_cast<double>(label))});
    return r.ToBoolean().Value();
  }

 private:
  Napi::Env env_;
  Napi::Function fn_;
};

/**
 * hnswlib's saveIndex writes through an ofstream it never checks: a path that cannot be opened
 * (no such directory, no permission) would pass as saved. Opened first, and the file's size read
 * back after.
 */
void SaveChecked(hnswlib::HierarchicalNSW<float>& index, const std::string& path) {
  {
    std::ofstream probe(path, std::ios::binary);
    if (!probe.is_open()) throw std::runtime_error("cannot open " + path + " for writing");
  }
  index.saveIndex(path);
  std::ifstream back(path, std::ios::binary | std::ios::ate);
  if (!back.is_open() || back.tellg() <= 0) throw std::runtime_error("nothing was written to " + path);
}

/**
 * Writes a graph to a file on a libuv thread, settling a Promise. The JS side must not change the
 * graph until it settles (hnswlib reads it without a lock); the object is referenced meanwhile.
 */
class WriteWorker : public Napi::AsyncWorker {
 public:
  WriteWorker(Napi::Object self, hnswlib::HierarchicalNSW<float>* index, std::string path)
      : Napi::AsyncWorker(self.Env(), "QuantizedIndex.writeIndex"), deferred_(Napi::Promise::Deferred::New(self.Env())), self_(Napi::Persistent(self)), index_(index), path_(std::move(path)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override {
    try {
      SaveChecked(*index_, path_);
    } catch (const std::exception& e) {
      SetError(std::string("cannot write the graph: ") + e.what());
    }
  }
  void OnOK() override { deferred_.Resolve(Env().Undefined()); }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  Napi::ObjectReference self_;
  hnswlib::HierarchicalNSW<float>* index_;
  std::string path_;
};

/** Reads a graph from a file on a libuv thread; `done` installs it on the JS thread. */
class ReadWorker : public Napi::AsyncWorker {
 public:
  using Done = std::function<void(std::unique_ptr<hnswlib::HierarchicalNSW<float>>)>;
  ReadWorker(Napi::Object self, hnswlib::SpaceInterface<float>* space, size_t row, std::string path, size_t max, Done done)
      : Napi::AsyncWorker(self.Env(), "QuantizedIndex.readIndex"), deferred_(Napi::Promise::Deferred::New(self.Env())), self_(Napi::Persistent(self)), space_(space), row_(row), path_(std::move(path)), max_(max), done_(std::move(done)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override {
    try {
      auto index = std::make_unique<hnswlib::HierarchicalNSW<float>>(space_);
      index->loadIndex(path_, space_, max_);
      // hnswlib takes the row size from the space, not the file: the file's row layout must match.
      if (index->label_offset_ != index->size_links_level0_ + row_) {
        SetError("the graph's rows do not match this index's kind and dimension");
        return;
      }
      loaded_ = std::move(index);
    } catch (const std::exception& e) {
      SetError(std::string("cannot read the graph: ") + e.what());
    }
  }
  void OnOK() override {
    done_(std::move(loaded_));
    deferred_.Resolve(Env().Undefined());
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  Napi::ObjectReference self_;
  hnswlib::SpaceInterface<float>* space_;
  size_t row_;
  std::string path_;
  size_t max_;
  Done done_;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> loaded_;
};

class QuantizedIndex : public Napi::ObjectWrap<QuantizedIndex> {
 public:
  static Napi::Object Init(Napi::Env env, Napi::Object exports) {
    Napi::Function cls = DefineClass(env, "QuantizedIndex",
                                     {
                                         InstanceMethod("initIndex", &QuantizedIndex::InitIndex),
                                         InstanceMethod("readIndexSync", &QuantizedIndex::ReadIndexSync),
                                         InstanceMethod("writeIndexSync", &QuantizedIndex::WriteIndexSync),
                                         InstanceMethod("readIndex", &QuantizedIndex::ReadIndex),
                                         InstanceMethod("writeIndex", &QuantizedIndex::WriteIndex),
                                         InstanceMethod("resizeIndex", &QuantizedIndex::ResizeIndex),
                                         InstanceMethod("getMaxElements", &QuantizedIndex::GetMaxElements),
                                         InstanceMethod("getCurrentCount", &QuantizedIndex::GetCurrentCount),
                                         InstanceMethod("setEf", &QuantizedIndex::SetEf),
                                         InstanceMethod("addPoint", &QuantizedIndex::AddPoint),
                                         InstanceMethod("markDelete", &QuantizedIndex::MarkDelete),
                                         InstanceMethod("unmarkDelete", &QuantizedIndex::UnmarkDelete),
                                         InstanceMethod("searchKnn", &QuantizedIndex::SearchKnn),
                                         InstanceMethod("encode", &QuantizedIndex::EncodeJs),
                                         InstanceMethod("getCodes", &QuantizedIndex::GetCodes),
                                         InstanceAccessor("bytesPerRow", &QuantizedIndex::BytesPerRow, nullptr),
                                     });
    exports.Set("QuantizedIndex", cls);
    return exports;
  }

  /** new QuantizedIndex(kind: 'int8' | 'binary', metric: 'l2' | 'ip', dim, alpha, offset) */
  explicit QuantizedIndex(const Napi::CallbackInfo& info) : Napi::ObjectWrap<QuantizedIndex>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 5 || !info[0].IsString() || !info[1].IsString() || !info[2].IsNumber() || !info[3].IsNumber() || !info[4].IsNumber())
      throw Napi::TypeError::New(env, "expected (kind, metric, dim, alpha, offset)");
    const std::string kind = info[0].As<Napi::String>();
    const std::string metric = info[1].As<Napi::String>();
    Params p{};
    if (kind == "int8") p.kind = Kind::Int8;
    else if (kind == "binary") p.kind = Kind::Binary;
    else throw Napi::TypeError::New(env, "kind must be 'int8' or 'binary'");
    if (metric == "l2") p.metric = Metric::L2;
    else if (metric == "ip") p.metric = Metric::IP;
    else throw Napi::TypeError::New(env, "metric must be 'l2' or 'ip'");
    const double dim = info[2].As<Napi::Number>().DoubleValue();
    if (!(dim >= 1 && dim <= 65536) || std::floor(dim) != dim) throw Napi::RangeError::New(env, "dim must be an integer from 1 to 65536");
    p.dim = static_cast<size_t>(dim);
    p.alpha = info[3].As<Napi::Number>().FloatValue();
    p.offset = info[4].As<Napi::Number>().FloatValue();
    if (p.kind == Kind::Int8 && !(p.alpha > 0.0f && std::isfinite(p.alpha) && std::isfinite(p.offset)))
      throw Napi::RangeError::New(env, "alpha must be finite and positive, offset finite");
    p.words = (p.dim + 63) / 64;
    space_ = std::make_unique<QuantizedSpace>(p);
    row_.resize(space_->get_data_size());
  }

 private:
  std::unique_ptr<QuantizedSpace> space_;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> index_;
  std::vector<uint8_t> row_;

  hnswlib::HierarchicalNSW<float>& Index(Napi::Env env) {
    if (!index_) throw Napi::Error::New(env, "the index is not initialized: call initIndex or readIndexSync first");
    return *index_;
  }

  const float* Vector(const Napi::CallbackInfo& info, size_t at) {
    if (info.Length() <= at || !info[at].IsTypedArray() || info[at].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array)
      throw Napi::TypeError::New(info.Env(), "expected a Float32Array");
    Napi::Float32Array a = info[at].As<Napi::Float32Array>();
    if (a.ElementLength() != space_->params().dim)
      throw Napi::RangeError::New(info.Env(), "vector of " + std::to_string(a.ElementLength()) + " dimensions, the index has " + std::to_string(space_->params().dim));
    return a.Data();
  }

  size_t Count(const Napi::CallbackInfo& info, size_t at, const char* what) {
    if (info.Length() <= at || !info[at].IsNumber()) throw Napi::TypeError::New(info.Env(), std::string(what) + " must be a number");
    const double v = info[at].As<Napi::Number>().DoubleValue();
    if (!(v >= 0) || std::floor(v) != v || v > 4294967295.0) throw Napi::RangeError::New(info.Env(), std::string(what) + " must be a non-negative integer");
    return static_cast<size_t>(v);
  }

  /** initIndex(maxElements, m = 16, efConstruction = 200, seed = 100) */
  Napi::Value InitIndex(const Napi::CallbackInfo& info) {
    const size_t max = Count(info, 0, "maxElements");
    const size_t m = info.Length() > 1 ? Count(info, 1, "m") : 16;
    const size_t efc = info.Length() > 2 ? Count(info, 2, "efConstruction") : 200;
    const size_t seed = info.Length() > 3 ? Count(info, 3, "seed") : 100;
    if (m < 2) throw Napi::RangeError::New(info.Env(), "m must be at least 2");
    index_ = std::make_unique<hnswlib::HierarchicalNSW<float>>(space_.get(), max, m, efc, seed);
    return info.Env().Undefined();
  }

  Napi::Value ReadIndexSync(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(info.Env(), "expected a file path");
    const std::string path = info[0].As<Napi::String>();
    const size_t max = info.Length() > 1 ? Count(info, 1, "maxElements") : 0;
    auto index = std::make_unique<hnswlib::HierarchicalNSW<float>>(space_.get());
    try {
      index->loadIndex(path, space_.get(), max);
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), std::string("cannot read the graph: ") + e.what());
    }
    // hnswlib takes the row size from the space, not the file: the file's row layout must match.
    if (index->label_offset_ != index->size_links_level0_ + space_->get_data_size()) throw Napi::Error::New(info.Env(), "the graph's rows do not match this index's kind and dimension");
    index_ = std::move(index);
    return info.Env().Undefined();
  }

  Napi::Value WriteIndexSync(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(info.Env(), "expected a file path");
    try {
      SaveChecked(Index(info.Env()), info[0].As<Napi::String>());
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), std::string("cannot write the graph: ") + e.what());
    }
    return info.Env().Undefined();
  }

  /** readIndex(path, maxElements = 0) -> Promise<void>: readIndexSync on a libuv thread. */
  Napi::Value ReadIndex(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(info.Env(), "expected a file path");
    const size_t max = info.Length() > 1 ? Count(info, 1, "maxElements") : 0;
    auto* worker = new ReadWorker(info.This().As<Napi::Object>(), space_.get(), space_->get_data_size(), info[0].As<Napi::String>(), max,
                                  [this](std::unique_ptr<hnswlib::HierarchicalNSW<float>> index) { index_ = std::move(index); });
    worker->Queue();
    return worker->Promise();
  }

  /** writeIndex(path) -> Promise<void>: writeIndexSync on a libuv thread (see WriteWorker). */
  Napi::Value WriteIndex(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(info.Env(), "expected a file path");
    auto* worker = new WriteWorker(info.This().As<Napi::Object>(), &Index(info.Env()), info[0].As<Napi::String>());
    worker->Queue();
    return worker->Promise();
  }

  Napi::Value ResizeIndex(const Napi::CallbackInfo& info) {
    const size_t n = Count(info, 0, "maxElements");
    try {
      Index(info.Env()).resizeIndex(n);
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  Napi::Value GetMaxElements(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(Index(info.Env()).getMaxElements())); }
  Napi::Value GetCurrentCount(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(Index(info.Env()).getCurrentElementCount())); }
  Napi::Value BytesPerRow(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(space_->get_data_size())); }

  Napi::Value SetEf(const Napi::CallbackInfo& info) {
    Index(info.Env()).setEf(Count(info, 0, "ef"));
    return info.Env().Undefined();
  }

  /** addPoint(vector: Float32Array, label, replaceDeleted = false) */
  Napi::Value AddPoint(const Napi::CallbackInfo& info) {
    const float* v = Vector(info, 0);
    const size_t label = Count(info, 1, "label");
    const bool replace = info.Length() > 2 && info[2].ToBoolean().Value();
    auto& index = Index(info.Env());
    space_->Encode(v, row_.data());
    try {
      index.addPoint(row_.data(), label, replace);
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  Napi::Value MarkDelete(const Napi::CallbackInfo& info) {
    try {
      Index(info.Env()).markDelete(Count(info, 0, "label"));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  Napi::Value UnmarkDelete(const Napi::CallbackInfo& info) {
    try {
      Index(info.Env()).unmarkDelete(Count(info, 0, "label"));
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  /**
   * searchKnn(query: Float32Array, k, filter?: (label) => boolean, asymmetric = false)
   * -> { neighbors: Uint32Array, distances: Float32Array }, nearest first. `asymmetric` (binary
   * only): the float32 query is compared with the rows' signs (SignedDot) instead of its own signs.
   */
  Napi::Value SearchKnn(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const float* q = Vector(info, 0);
    const size_t k = Count(info, 1, "k");
    auto& index = Index(env);
    std::unique_ptr<JsFilter> filter;
    if (info.Length() > 2 && info[2].IsFunction()) filter = std::make_unique<JsFilter>(env, info[2].As<Napi::Function>());
    else if (info.Length() > 2 && !info[2].IsUndefined() && !info[2].IsNull()) throw Napi::TypeError::New(env, "filter must be a function");
    const bool asymmetric = info.Length() > 3 && info[3].ToBoolean().Value();
    if (asymmetric && space_->params().kind != Kind::Binary) throw Napi::TypeError::New(env, "an asymmetric search is for binary codes only");
    std::vector<uint8_t> code(space_->get_data_size());
    space_->Encode(q, code.data());
    // Set for this search only, cleared however it ends (a filter may throw).
    struct Asymmetric {
      Params& p;
      ~Asymmetric() {
        p.query = nullptr;
        p.queryFloat = nullptr;
      }
    } guard{space_->params()};
    if (asymmetric) {
      Params& p = space_->params();
      float sum = 0;
      for (size_t i = 0; i < p.dim; i++) sum += std::fabs(q[i]);
      p.query = code.data();
      p.queryFloat = q;
      p.queryAbsSum = sum;
    }
    std::priority_queue<std::pair<float, hnswlib::labeltype>> found;
    try {
      found = index.searchKnn(code.data(), k, filter.get());
    } catch (const Napi::Error&) {
      throw;  // the filter threw in JS: its error goes on
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, e.what());
    }
    const size_t n = found.size();
    Napi::Uint32Array neighbors = Napi::Uint32Array::New(env, n);
    Napi::Float32Array distances = Napi::Float32Array::New(env, n);
    for (size_t i = n; i-- > 0;) {
      neighbors[i] = static_cast<uint32_t>(found.top().second);
      distances[i] = found.top().first;
      found.pop();
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("neighbors", neighbors);
    out.Set("distances", distances);
    return out;
  }

  /** The row a vector is stored as (tests, and sizing). */
  Napi::Value EncodeJs(const Napi::CallbackInfo& info) {
    const float* v = Vector(info, 0);
    Napi::Uint8Array out = Napi::Uint8Array::New(info.Env(), space_->get_data_size());
    space_->Encode(v, out.Data());
    return out;
  }

  /** The row stored for a label. */
  Napi::Value GetCodes(const Napi::CallbackInfo& info) {
    auto& index = Index(info.Env());
    const size_t label = Count(info, 0, "label");
    auto found = index.label_lookup_.find(label);
    if (found == index.label_lookup_.end()) throw Napi::RangeError::New(info.Env(), "label not found");
    Napi::Uint8Array out = Napi::Uint8Array::New(info.Env(), space_->get_data_size());
    std::memcpy(out.Data(), index.getDataByInternalId(found->second), space_->get_data_size());
    return out;
  }
};

}  // namespace

Napi::Object InitAll(Napi::Env env, Napi::Object exports) { return QuantizedIndex::Init(env, exports); }

NODE_API_MODULE(quantized_hnsw, InitAll)
