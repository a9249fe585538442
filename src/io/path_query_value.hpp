#pragma once
// parse_path_query on a request the io module's JSON reader (json_reader.hpp) has read
// already: the viewer's API reads a request's body once, map and query together. Not installed
// (the reader is internal to io); waymark/io/path_query.hpp has the text form.

#include "json_reader.hpp"
#include "waymark/io/path_query.hpp"

namespace waymark::io {

/// parse_path_query(text, parts) for a value already read: a refusal when it is not an object.
[[nodiscard]] ParsedPathQuery parse_path_query_value(const json::Value& request,
                                                     PathQueryParts parts = PathQueryParts::query);

}  // namespace waymark::io
