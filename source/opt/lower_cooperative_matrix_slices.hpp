// Moving the elements of slices between SPIR-V values: a slice is taken apart into element
// sources (which value holds the element, and where), and put together again in another shape,
// with vector shuffles and whole vectors where the elements allow it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "opt/lower_cooperative_matrix.hpp"

namespace xmx::opt::lower_coop {

class Builder;

struct ElementSource {
  uint32_t value = 0;
  uint32_t vector_length = 0;  // 0: `value` is the scalar itself
  uint32_t index = 0;          // component of `value`
};

LaneRep MakeLaneRep(Builder& b, uint32_t component_type, uint32_t length);
// CompositeExtract / Insert / AccessChain indices of element `element` of a slice.
std::vector<uint32_t> IndexPath(const LaneRep& rep, uint32_t element);
// The elements of a slice value.
std::vector<ElementSource> Elements(Builder& b, const LaneRep& rep, uint32_t value);
uint32_t ScalarOf(Builder& b, uint32_t component_type, const ElementSource& source);
// A scalar (one source) or a vector of the sources (2, 3, 4, 8 or 16 of them).
uint32_t GatherVector(Builder& b, uint32_t component_type, std::span<const ElementSource> srcs);
// A slice value of `rep` made of the sources (rep.length of them).
uint32_t Assemble(Builder& b, const LaneRep& rep, std::span<const ElementSource> srcs);
// The sources, reinterpreted (OpBitcast) as `target_count` components of `target_scalar`.
uint32_t GatherAs(Builder& b, uint32_t component_type, std::span<const ElementSource> srcs,
                  uint32_t target_scalar, uint32_t target_count);
// The reverse: a value of `value_count` x `value_scalar` seen as `component_count` components.
std::vector<ElementSource> SplitAs(Builder& b, uint32_t value, uint32_t value_scalar,
                                   uint32_t value_count, uint32_t component_type,
                                   uint32_t component_count);

}  // namespace xmx::opt::lower_coop
