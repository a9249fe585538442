#pragma once
// parse_path_query on a JSON object nlohmann-json has read already: the viewer's API reads a
// request's body once, map and query together. Not installed (the library's consumers need no
// nlohmann-json); waymark/io/path_query.hpp has the text form.

#include <nlohmann/json.hpp>

#include "waymark/io/path_query.hpp"

namespace waymark::io {

/// parse_path_query(text, parts) for a value already read: a refusal when it is not an object.
[[nodiscard]] ParsedPathQuery parse_path_query_object(const nlohmann::json& request,
                                                      PathQueryParts parts = PathQueryParts::query);

}  // namespace waymark::io
