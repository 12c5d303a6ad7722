// A vector of trivially copyable values that keeps its first N elements inside the object and
// goes to the heap only past them. ir::Instruction holds its operand words and operand slots in
// two of these: nine instructions in ten of the corpus have at most five operand words, so
// reading a module allocates one list node per instruction instead of three blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace xmx {

template <typename T, uint32_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>,
                "InlineVector copies its elements as bytes");
  static_assert(N > 0);

 public:
  InlineVector() = default;
  InlineVector(const InlineVector& other) { append(other.data(), other.size()); }
  InlineVector(InlineVector&& other) noexcept { TakeFrom(other); }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) {
      size_ = 0;
      append(other.data(), other.size());
    }
    return *this;
  }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) {
      FreeHeap();
      TakeFrom(other);
    }
    return *this;
  }
  ~InlineVector() { FreeHeap(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return on_heap() ? heap_ : inline_; }
  const T* data() const { return on_heap() ? heap_ : inline_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void reserve(size_t count) {
    if (count > capacity_) Grow(count);
  }
  void clear() { size_ = 0; }
  void push_back(const T& value) {
    if (size_ == capacity_) {
      const T copy = value;  // `value` may be an element of this vector
      Grow(size_ + 1);
      data()[size_++] = copy;
      return;
    }
    data()[size_++] = value;
  }
  void append(const T* first, size_t count) {
    // The common case of reading a module (one operand's words, room reserved): no move, no
    // growth, so the range may be our own elements; one word is copied without a call.
    if (size_ + count <= capacity_) {
      T* const end = data() + size_;
      if (count == 1) {
        *end = *first;
      } else if (count != 0) {
        std::memcpy(end, first, count * sizeof(T));
      }
      size_ += static_cast<uint32_t>(count);
      return;
    }
    insert(size_, first, count);
  }
  // Inserts [first, first + count) before element `at`; the range may lie in this vector.
  void insert(size_t at, const T* first, size_t count) {
    if (count == 0) return;
    const T* const old_data = data();
    if (first >= old_data && first < old_data + size_) {
      // A range of our own elements: moving them to make room (or growing) would change it.
      T* copy = static_cast<T*>(::operator new(count * sizeof(T)));
      std::memcpy(copy, first, count * sizeof(T));
      insert(at, copy, count);
      ::operator delete(copy);
      return;
    }
    if (size_ + count > capacity_) Grow(size_ + count);
    T* const elements = data();
    std::memmove(elements + at + count, elements + at, (size_ - at) * sizeof(T));
    std::memcpy(elements + at, first, count * sizeof(T));
    size_ += static_cast<uint32_t>(count);
  }
  // Removes elements [at, at + count).
  void erase(size_t at, size_t count) {
    T* const elements = data();
    std::memmove(elements + at, elements + at + count, (size_ - at - count) * sizeof(T));
    size_ -= static_cast<uint32_t>(count);
  }

 private:
  bool on_heap() const { return capacity_ > N; }

  void Grow(size_t at_least) {
    size_t capacity = 2 * size_t{capacity_};
    if (capacity < at_least) capacity = at_least;
    T* const grown = static_cast<T*>(::operator new(capacity * sizeof(T)));
    std::memcpy(grown, data(), size_ * sizeof(T));
    FreeHeap();
    heap_ = grown;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  void FreeHeap() {
    if (on_heap()) ::operator delete(heap_);
    capacity_ = N;
  }

  // Leaves `other` empty, with its elements (or its heap block) ours; this vector holds nothing.
  void TakeFrom(InlineVector& other) {
    size_ = other.size_;
    if (other.on_heap()) {
      heap_ = other.heap_;
      capacity_ = other.capacity_;
      other.capacity_ = N;
    } else {
      std::memcpy(inline_, other.inline_, size_ * sizeof(T));
      capacity_ = N;
    }
    other.size_ = 0;
  }

  union {
    T inline_[N];
    T* heap_;
  };
  uint32_t size_ = 0;
  uint32_t capacity_ = N;
};

}  // namespace xmx
