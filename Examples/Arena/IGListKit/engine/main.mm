// iglistkit-engine: IGListKit's real diff (IGListDiff.mm, compiled from a user's checkout by
// Examples/Arena/Scripts/build-iglistkit) as a DiffLab engine speaking `difflab-engine/1`
// (docs/engine-protocol.md) on standard input and output, one JSON object per line.
//
// This file is DiffLab's own; it contains no IGListKit code. It is compiled as Objective-C++
// with clang's `-fobjc-runtime=gcc` against GNUstep base, WITHOUT ARC (the gcc runtime has none):
// every object below is retained and released by hand, and IGListKit's results, which hold
// autoreleased maps they never retained, are read inside the @autoreleasepool that made them.
//
// Usage:
//   iglistkit-engine             serve requests on stdin/stdout (run it through DiffLab)
//   iglistkit-engine --version   print the build's label
//
// ## Promises, and the IGListKit documentation they rest on (release 5.2.0)
//
// duplicates: false. IGListKit asks for unique identifiers and removes duplicates itself before
//   it diffs in its adapter:
//     Source/IGListDiffKit/IGListDiffable.h:
//       "Returns a key that uniquely identifies the object."
//     Guides/Best Practices and FAQ.md:
//       "implementation returns a **unique identifier** for each object."
//     Source/IGListKit/Internal/IGListArrayUtilsInternal.h (used by IGListAdapter.m and
//     IGListBindingSectionController.m before diffing):
//       "Returns a copy of the provided array, with all duplicates"
//       "of objects with the same `diffIdentifier` value removed."
//     and IGListArrayUtilsInternal.m logs "Duplicate identifier %@ for object %@ with object %@".
//   IGListDiff itself accepts repeated identifiers (it keeps a stack of old indexes per
//   identifier), but nothing promises a correct result for them, so none is promised here.
//
// reference: "heckel". Guides/Getting Started.md:
//     "`IGListKit` uses an algorithm adapted from a paper titled [A technique for isolating
//      differences between files](...) by Paul Heckel."
//   DiffLab's heckel engine is the same pairing (it was written after IGListDiff.mm).
//
// minimalMoves: false. The same guide says the algorithm finds "a minimal diff between
//   collections in linear time `O(n)`", but IGListDiff.mm reports a move for every paired item
//   whose index shifted by other than its deletes and inserts (the "offsets" rule), not the
//   fewest moves: [a,b,c] -> [c,a,b] gives 3 moves where 1 would do. No fewest-moves promise.
//
// ## What the answer reports (and the choice for duplicates)
//
// inserts, deletes, moves: IGListIndexSetResult's `inserts`, `deletes` and `moves` (from/to).
// updates: IGListKit's `updates` is an index set of OLD indexes; the protocol wants [old, new]
//   pairs. The new index is what an app can ask IGListKit for: `-newIndexForIdentifier:` with the
//   updated old element's `diffIdentifier`. With a repeated identifier that map holds one index
//   per identifier (the last occurrence in the new list wins), which need not be the pair
//   IGListDiff made; we report it anyway, exactly as IGListKit would give it to an app. (Outside
//   the promises: duplicates are not promised.)
// batch: `-[IGListIndexSetResult resultForBatchUpdates]`, read the same way (its `updates` is
//   always empty in IGListKit 5.2.0, since it turns every update into a delete and an insert).
// seconds: only the IGListDiff(...) call and -resultForBatchUpdates, timed with
//   clock_gettime(CLOCK_MONOTONIC); parsing, building the elements and writing are excluded.
//
// Elements: DLWireElement, whose diffIdentifier is the wire ID as an NSNumber (integer IDs) or an
// NSString (string IDs), and whose isEqualToDiffableObject: compares tokens (integer or string).
// IGListDiff is called with IGListDiffEquality.
//
// Malformed requests: a line that is not one JSON object, or has no usable `id` or `type`, ends the
// engine with a message on standard error (exit status 65); a `diff` request with a positive
// integer `id` but a wrong shape (unknown key, a missing list, an element that is not
// [ID, TOKEN], an ID that is not a 64-bit integer or a string) gets an `error` answer. An
// Objective-C exception inside IGListKit is caught and answered as an `error`.

#import <Foundation/Foundation.h>

#import "IGListDiff.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>
#include <vector>

#ifndef IGLK_ENGINE_LABEL
#define IGLK_ENGINE_LABEL "IGListKit (unknown version) (unknown commit), mechanical Linux build on GNUstep"
#endif

static const char *const kProtocol = "difflab-engine/1";

static const char *const kHello =
    "{\"type\":\"hello\",\"protocol\":\"difflab-engine/1\",\"name\":\"iglistkit\","
    "\"promises\":{\"duplicates\":false,\"minimalMoves\":false,\"reference\":\"heckel\"},"
    "\"batch\":true}";

// MARK: - Elements

/// One wire element: `diffIdentifier` is the wire ID, equality compares the wire tokens.
@interface DLWireElement : NSObject <IGListDiffable> {
@public
    id _identifier;          // NSNumber or NSString, retained
    long long _tokenInteger; // the token when it is an integer
    NSString *_tokenString;  // the token when it is a string (else nil), retained
}
@end

@implementation DLWireElement

- (void)dealloc {
    [_identifier release];
    [_tokenString release];
    [super dealloc];
}

- (id<NSObject>)diffIdentifier {
    return _identifier;
}

- (BOOL)isEqualToDiffableObject:(id<IGListDiffable>)object {
    if ((id)object == (id)self) {
        return YES;
    }
    if (![(id)object isKindOfClass:[DLWireElement class]]) {
        return NO;
    }
    DLWireElement *other = (DLWireElement *)object;
    if (_tokenString == nil || other->_tokenString == nil) {
        // 1 and "1" are different tokens.
        return _tokenString == other->_tokenString && _tokenInteger == other->_tokenInteger;
    }
    return [_tokenString isEqualToString:other->_tokenString];
}

@end

// MARK: - A strict JSON reader for the protocol's requests

/// A wire ID or token: an integer, or a string held in the request's string arena.
struct WireValue {
    bool isString = false;
    long long integer = 0;
    size_t offset = 0; // into Request::arena, when isString
    size_t length = 0;
};

struct WireElementValue {
    WireValue identifier;
    WireValue token;
};

/// A parsed request: the keys the protocol knows, and the first problem with its shape.
struct Request {
    bool hasType = false, hasProtocol = false, hasId = false, hasOld = false, hasNew = false;
    std::string type, protocol;
    bool idIsPositiveInteger = false;
    long long id = 0;
    std::vector<WireElementValue> oldList, newList;
    std::string arena;   // decoded string IDs and tokens, back to back
    std::string problem; // the first shape problem (the JSON itself is valid), or empty
};

/// A single-pass reader over one line. A syntax error (not JSON) is fatal; a shape error (valid
/// JSON, not the protocol's shape) is recorded in Request::problem and reading goes on, so that
/// the request's `id` can still be answered.
class Reader {
public:
    Reader(const char *begin, const char *end) : p_(begin), end_(end) {}

    /// Reads the whole line into `request`; false with `error()` set on a syntax error.
    bool readRequest(Request &request) {
        request_ = &request;
        skipWhitespace();
        if (!expect('{')) return false;
        skipWhitespace();
        if (peek() == '}') {
            ++p_;
        } else {
            std::vector<std::string> seenKeys;
            for (;;) {
                skipWhitespace();
                std::string key;
                if (peek() != '"') return syntax("expected a key string");
                if (!readString(&key)) return false;
                for (const std::string &seen : seenKeys) {
                    if (seen == key) return syntax("duplicate key \"" + key + "\"");
                }
                seenKeys.push_back(key);
                skipWhitespace();
                if (!expect(':')) return false;
                skipWhitespace();
                if (!readMember(key)) return false;
                skipWhitespace();
                if (peek() == ',') { ++p_; continue; }
                if (peek() == '}') { ++p_; break; }
                return syntax("expected ',' or '}' in the object");
            }
        }
        skipWhitespace();
        if (p_ != end_) return syntax("text after the JSON object");
        return true;
    }

    const std::string &error() const { return error_; }

private:
    const char *p_;
    const char *end_;
    Request *request_ = nullptr;
    std::string error_;

    static constexpr int kMaxDepth = 512;

    int peek() const { return p_ < end_ ? (unsigned char)*p_ : -1; }

    bool syntax(const std::string &message) {
        if (error_.empty()) error_ = message;
        return false;
    }

    void shape(const std::string &message) {
        if (request_->problem.empty()) request_->problem = message;
    }

    bool expect(char c) {
        if (peek() != (unsigned char)c) return syntax(std::string("expected '") + c + "'");
        ++p_;
        return true;
    }

    void skipWhitespace() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }

    bool readMember(const std::string &key) {
        Request &r = *request_;
        if (key == "type" || key == "protocol") {
            bool &has = key == "type" ? r.hasType : r.hasProtocol;
            std::string &slot = key == "type" ? r.type : r.protocol;
            if (peek() != '"') {
                shape("\"" + key + "\" is not a string");
                return skipValue(1);
            }
            has = true;
            return readString(&slot);
        }
        if (key == "id") {
            r.hasId = true;
            const char *start = p_;
            bool isInteger = false, overflow = false;
            long long value = 0;
            if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
                if (!readNumber(&isInteger, &value, &overflow)) return false;
                if (isInteger && !overflow && value > 0) {
                    r.idIsPositiveInteger = true;
                    r.id = value;
                    return true;
                }
            } else {
                p_ = start;
                if (!skipValue(1)) return false;
            }
            shape("\"id\" is not a positive integer");
            return true;
        }
        if (key == "old" || key == "new") {
            (key == "old" ? r.hasOld : r.hasNew) = true;
            return readList(key == "old" ? r.oldList : r.newList, key);
        }
        shape("unknown key \"" + key + "\"");
        return skipValue(1);
    }

    /// `[[ID, TOKEN], ...]`; any other shape is recorded and the value skipped.
    bool readList(std::vector<WireElementValue> &list, const std::string &key) {
        const char *start = p_;
        if (peek() != '[') {
            shape("\"" + key + "\" is not an array");
            return skipValue(1);
        }
        ++p_;
        skipWhitespace();
        if (peek() == ']') { ++p_; return true; }
        for (;;) {
            skipWhitespace();
            WireElementValue element;
            bool wellShaped = true;
            if (peek() != '[') {
                wellShaped = false;
            } else {
                const char *elementStart = p_;
                ++p_;
                skipWhitespace();
                bool ok = readWireValue(&element.identifier, &wellShaped, key, "ID");
                if (!ok) return false;
                if (wellShaped) {
                    skipWhitespace();
                    if (peek() == ',') {
                        ++p_;
                        skipWhitespace();
                        ok = readWireValue(&element.token, &wellShaped, key, "token");
                        if (!ok) return false;
                        skipWhitespace();
                        if (wellShaped && peek() == ']') {
                            ++p_;
                        } else {
                            wellShaped = false;
                        }
                    } else {
                        wellShaped = false;
                    }
                }
                if (!wellShaped) p_ = elementStart;
            }
            if (!wellShaped) {
                // Record the problem and skip the rest of the list as plain JSON.
                shape("an element of \"" + key + "\" is not a pair [ID, TOKEN] of integers or strings");
                p_ = start;
                list.clear();
                return skipValue(1);
            }
            list.push_back(element);
            skipWhitespace();
            if (peek() == ',') { ++p_; continue; }
            if (peek() == ']') { ++p_; return true; }
            return syntax("expected ',' or ']' in \"" + key + "\"");
        }
    }

    /// An ID or a token: a 64-bit integer or a string. `*wellShaped` false for any other value
    /// (then nothing is consumed); false only on a syntax error.
    bool readWireValue(WireValue *value, bool *wellShaped, const std::string &, const char *) {
        int c = peek();
        if (c == '"') {
            std::string &arena = request_->arena;
            value->isString = true;
            value->offset = arena.size();
            if (!readString(&arena)) return false;
            value->length = arena.size() - value->offset;
            return true;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            const char *start = p_;
            bool isInteger = false, overflow = false;
            if (!readNumber(&isInteger, &value->integer, &overflow)) return false;
            if (!isInteger || overflow) {
                p_ = start;
                *wellShaped = false;
            }
            return true;
        }
        *wellShaped = false;
        return true;
    }

    /// A JSON number (RFC 8259 grammar). `*isInteger` when it has no fraction or exponent;
    /// `*overflow` when such an integer is outside the 64-bit signed range.
    bool readNumber(bool *isInteger, long long *value, bool *overflow) {
        const char *start = p_;
        bool negative = false;
        if (peek() == '-') { negative = true; ++p_; }
        if (peek() == '0') {
            ++p_;
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9') ++p_;
        } else {
            return syntax("malformed number");
        }
        const char *digitsEnd = p_;
        bool fraction = false, exponent = false;
        if (peek() == '.') {
            fraction = true;
            ++p_;
            if (!(peek() >= '0' && peek() <= '9')) return syntax("malformed number");
            while (peek() >= '0' && peek() <= '9') ++p_;
        }
        if (peek() == 'e' || peek() == 'E') {
            exponent = true;
            ++p_;
            if (peek() == '+' || peek() == '-') ++p_;
            if (!(peek() >= '0' && peek() <= '9')) return syntax("malformed number");
            while (peek() >= '0' && peek() <= '9') ++p_;
        }
        *isInteger = !fraction && !exponent;
        *overflow = false;
        if (*isInteger) {
            // from_chars accepts the leading '-' and reports out-of-range values.
            (void)negative;
            auto result = std::from_chars(start, digitsEnd, *value);
            if (result.ec != std::errc() || result.ptr != digitsEnd) *overflow = true;
        }
        return true;
    }

    static void appendUTF8(std::string *out, uint32_t code) {
        if (code < 0x80) {
            out->push_back((char)code);
        } else if (code < 0x800) {
            out->push_back((char)(0xC0 | (code >> 6)));
            out->push_back((char)(0x80 | (code & 0x3F)));
        } else if (code < 0x10000) {
            out->push_back((char)(0xE0 | (code >> 12)));
            out->push_back((char)(0x80 | ((code >> 6) & 0x3F)));
            out->push_back((char)(0x80 | (code & 0x3F)));
        } else {
            out->push_back((char)(0xF0 | (code >> 18)));
            out->push_back((char)(0x80 | ((code >> 12) & 0x3F)));
            out->push_back((char)(0x80 | ((code >> 6) & 0x3F)));
            out->push_back((char)(0x80 | (code & 0x3F)));
        }
    }

    bool readHex4(uint32_t *code) {
        if (end_ - p_ < 4) return syntax("truncated \\u escape");
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) {
            char c = p_[i];
            v <<= 4;
            if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
            else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
            else return syntax("malformed \\u escape");
        }
        p_ += 4;
        *code = v;
        return true;
    }

    /// A JSON string, decoded and appended to `*out` as UTF-8 (a lone surrogate escape is kept
    /// as its 3-byte form; NSString then refuses it and the request gets an `error` answer).
    bool readString(std::string *out) {
        if (!expect('"')) return false;
        for (;;) {
            const char *runStart = p_;
            while (p_ < end_ && *p_ != '"' && *p_ != '\\' && (unsigned char)*p_ >= 0x20) ++p_;
            out->append(runStart, (size_t)(p_ - runStart));
            if (p_ >= end_) return syntax("unterminated string");
            char c = *p_;
            if (c == '"') { ++p_; return true; }
            if ((unsigned char)c < 0x20) return syntax("control character in a string");
            // A backslash escape.
            ++p_;
            if (p_ >= end_) return syntax("unterminated escape");
            c = *p_++;
            switch (c) {
                case '"': out->push_back('"'); break;
                case '\\': out->push_back('\\'); break;
                case '/': out->push_back('/'); break;
                case 'b': out->push_back('\b'); break;
                case 'f': out->push_back('\f'); break;
                case 'n': out->push_back('\n'); break;
                case 'r': out->push_back('\r'); break;
                case 't': out->push_back('\t'); break;
                case 'u': {
                    uint32_t code;
                    if (!readHex4(&code)) return false;
                    if (code >= 0xD800 && code <= 0xDBFF && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
                        const char *save = p_;
                        p_ += 2;
                        uint32_t low;
                        if (!readHex4(&low)) return false;
                        if (low >= 0xDC00 && low <= 0xDFFF) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        } else {
                            p_ = save;
                        }
                    }
                    appendUTF8(out, code);
                    break;
                }
                default:
                    return syntax("unknown escape in a string");
            }
        }
    }

    bool readLiteral(const char *literal) {
        size_t n = strlen(literal);
        if ((size_t)(end_ - p_) < n || memcmp(p_, literal, n) != 0) return syntax("unexpected character");
        p_ += n;
        return true;
    }

    /// Any JSON value, checked and skipped. `depth` is the nesting of the value itself.
    bool skipValue(int depth) {
        if (depth > kMaxDepth) return syntax("nesting deeper than 512");
        int c = peek();
        if (c == '"') {
            std::string ignored;
            return readString(&ignored);
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            bool isInteger, overflow;
            long long value;
            return readNumber(&isInteger, &value, &overflow);
        }
        if (c == 't') return readLiteral("true");
        if (c == 'f') return readLiteral("false");
        if (c == 'n') return readLiteral("null");
        if (c == '[') {
            ++p_;
            skipWhitespace();
            if (peek() == ']') { ++p_; return true; }
            for (;;) {
                skipWhitespace();
                if (!skipValue(depth + 1)) return false;
                skipWhitespace();
                if (peek() == ',') { ++p_; continue; }
                if (peek() == ']') { ++p_; return true; }
                return syntax("expected ',' or ']'");
            }
        }
        if (c == '{') {
            ++p_;
            skipWhitespace();
            if (peek() == '}') { ++p_; return true; }
            std::vector<std::string> keys;
            for (;;) {
                skipWhitespace();
                std::string key;
                if (peek() != '"') return syntax("expected a key string");
                if (!readString(&key)) return false;
                for (const std::string &seen : keys) {
                    if (seen == key) return syntax("duplicate key \"" + key + "\"");
                }
                keys.push_back(key);
                skipWhitespace();
                if (!expect(':')) return false;
                skipWhitespace();
                if (!skipValue(depth + 1)) return false;
                skipWhitespace();
                if (peek() == ',') { ++p_; continue; }
                if (peek() == '}') { ++p_; return true; }
                return syntax("expected ',' or '}'");
            }
        }
        if (c < 0) return syntax("unexpected end of line");
        return syntax("unexpected character");
    }
};

// MARK: - Answers

static void appendInteger(std::string &out, long long value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, (size_t)(result.ptr - buffer));
}

static void appendJSONString(std::string &out, const std::string &text) {
    out.push_back('"');
    for (unsigned char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char escape[8];
                    snprintf(escape, sizeof escape, "\\u%04x", c);
                    out += escape;
                } else {
                    out.push_back((char)c);
                }
        }
    }
    out.push_back('"');
}

/// Writes one answer line and flushes; a failed write (the lab is gone) ends the engine.
static void writeLine(std::string &line) {
    line.push_back('\n');
    if (fwrite(line.data(), 1, line.size(), stdout) != line.size() || fflush(stdout) != 0) {
        exit(0);
    }
}

static void answerError(long long requestId, const std::string &message) {
    std::string line = "{\"type\":\"error\",\"id\":";
    appendInteger(line, requestId);
    line += ",\"message\":";
    appendJSONString(line, message);
    line += "}";
    writeLine(line);
}

[[noreturn]] static void fatal(const std::string &message) {
    fprintf(stderr, "iglistkit-engine: %s\n", message.c_str());
    fflush(stderr);
    exit(65);
}

/// One result's four lists, in the protocol's shapes.
struct Changes {
    std::vector<NSUInteger> inserts, deletes;
    std::vector<std::pair<NSInteger, NSInteger>> updates, moves;
};

static std::vector<NSUInteger> indexesOf(NSIndexSet *set) {
    std::vector<NSUInteger> indexes([set count]);
    if (!indexes.empty()) {
        NSRange range = NSMakeRange(0, NSNotFound);
        [set getIndexes:indexes.data() maxCount:indexes.size() inIndexRange:&range];
    }
    return indexes;
}

/// Reads an IGListIndexSetResult (see the top of the file for the update pairs). Must run inside
/// the autorelease pool that made `result`: its maps are autoreleased objects it never retained.
static Changes readChanges(IGListIndexSetResult *result, NSArray *oldArray) {
    Changes changes;
    changes.inserts = indexesOf([result inserts]);
    changes.deletes = indexesOf([result deletes]);
    for (NSUInteger oldIndex : indexesOf([result updates])) {
        id<IGListDiffable> element = [oldArray objectAtIndex:oldIndex];
        NSInteger newIndex = [result newIndexForIdentifier:[element diffIdentifier]];
        changes.updates.emplace_back((NSInteger)oldIndex, newIndex);
    }
    NSArray *moves = [result moves];
    NSUInteger moveCount = [moves count];
    changes.moves.reserve(moveCount);
    for (NSUInteger i = 0; i < moveCount; i++) {
        IGListMoveIndex *move = [moves objectAtIndex:i];
        changes.moves.emplace_back([move from], [move to]);
    }
    return changes;
}

static void appendIndexes(std::string &out, const std::vector<NSUInteger> &indexes) {
    out.push_back('[');
    for (size_t i = 0; i < indexes.size(); i++) {
        if (i) out.push_back(',');
        appendInteger(out, (long long)indexes[i]);
    }
    out.push_back(']');
}

static void appendPairs(std::string &out, const std::vector<std::pair<NSInteger, NSInteger>> &pairs) {
    out.push_back('[');
    for (size_t i = 0; i < pairs.size(); i++) {
        if (i) out.push_back(',');
        out.push_back('[');
        appendInteger(out, pairs[i].first);
        out.push_back(',');
        appendInteger(out, pairs[i].second);
        out.push_back(']');
    }
    out.push_back(']');
}

static void appendChanges(std::string &out, const Changes &changes) {
    out += "\"inserts\":";
    appendIndexes(out, changes.inserts);
    out += ",\"deletes\":";
    appendIndexes(out, changes.deletes);
    out += ",\"updates\":";
    appendPairs(out, changes.updates);
    out += ",\"moves\":";
    appendPairs(out, changes.moves);
}

static double monotonicSeconds() {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

// MARK: - Diff requests

/// The elements of one list as a retained NSArray of DLWireElement; nil (with `*problem`) when a
/// string is not valid UTF-8.
static NSArray *makeArray(const std::vector<WireElementValue> &list, const std::string &arena,
                          std::string *problem) {
    const size_t count = list.size();
    std::vector<id> objects(count);
    size_t made = 0;
    bool ok = true;
    for (; made < count; made++) {
        const WireElementValue &value = list[made];
        DLWireElement *element = [[DLWireElement alloc] init];
        objects[made] = element;
        if (value.identifier.isString) {
            element->_identifier = [[NSString alloc] initWithBytes:arena.data() + value.identifier.offset
                                                            length:value.identifier.length
                                                          encoding:NSUTF8StringEncoding];
        } else {
            element->_identifier = [[NSNumber alloc] initWithLongLong:value.identifier.integer];
        }
        if (value.token.isString) {
            element->_tokenString = [[NSString alloc] initWithBytes:arena.data() + value.token.offset
                                                             length:value.token.length
                                                           encoding:NSUTF8StringEncoding];
            if (element->_tokenString == nil) ok = false;
        } else {
            element->_tokenInteger = value.token.integer;
        }
        if (element->_identifier == nil) ok = false;
        if (!ok) {
            made++;
            break;
        }
    }
    NSArray *array = ok ? [[NSArray alloc] initWithObjects:objects.data() count:count] : nil;
    for (size_t i = 0; i < made; i++) [objects[i] release];
    if (!ok) *problem = "a string is not valid Unicode (UTF-8)";
    return array;
}

static void answerDiff(const Request &request) {
    std::string problem;
    NSArray *oldArray = makeArray(request.oldList, request.arena, &problem);
    NSArray *newArray = oldArray ? makeArray(request.newList, request.arena, &problem) : nil;
    if (oldArray == nil || newArray == nil) {
        [oldArray release];
        answerError(request.id, problem);
        return;
    }

    std::string line;
    bool failed = false;
    std::string failure;
    @autoreleasepool {
        @try {
            const double start = monotonicSeconds();
            IGListIndexSetResult *result = IGListDiff(oldArray, newArray, IGListDiffEquality);
            IGListIndexSetResult *batch = [result resultForBatchUpdates];
            const double seconds = monotonicSeconds() - start;

            // Read both results here, inside the pool that made them.
            const Changes flat = readChanges(result, oldArray);
            const Changes batched = readChanges(batch, oldArray);
            // IGListKit returns both results +1 (no ARC to balance them); releasing them frees
            // only the two result objects: their ivars were never retained (see README.md).
            [batch release];
            [result release];

            line.reserve(32 + 12 * (flat.inserts.size() + flat.deletes.size() + batched.inserts.size() +
                                    batched.deletes.size()) +
                         24 * (flat.updates.size() + flat.moves.size() + batched.moves.size()));
            line += "{\"type\":\"result\",\"id\":";
            appendInteger(line, request.id);
            line.push_back(',');
            appendChanges(line, flat);
            line += ",\"batch\":{";
            appendChanges(line, batched);
            line += "},\"seconds\":";
            char secondsText[40];
            snprintf(secondsText, sizeof secondsText, "%.9f", seconds < 0 ? 0.0 : seconds);
            line += secondsText;
            line += "}";
        } @catch (NSException *exception) {
            failed = true;
            failure = std::string("Objective-C exception ") + [[exception name] UTF8String] + ": " +
                      [[exception reason] UTF8String];
        }
    }
    [oldArray release];
    [newArray release];
    if (failed) {
        answerError(request.id, failure);
    } else {
        writeLine(line);
    }
}

// MARK: - Main loop

/// Reads and answers one request line (without its newline).
static void serveLine(const char *begin, const char *end) {
    Request request;
    Reader reader(begin, end);
    if (!reader.readRequest(request)) {
        fatal("a request line is not one JSON object (" + reader.error() + ")");
    }
    if (!request.hasType) fatal("a request has no \"type\"");
    if (request.type == "hello") {
        if (!request.problem.empty()) fatal("malformed hello: " + request.problem);
        if (request.hasId || request.hasOld || request.hasNew) fatal("malformed hello: unexpected key");
        if (!request.hasProtocol || request.protocol != kProtocol) {
            fatal("the lab speaks \"" + request.protocol + "\", this engine speaks " + kProtocol);
        }
        std::string line = kHello;
        writeLine(line);
    } else if (request.type == "diff") {
        if (!request.idIsPositiveInteger) {
            fatal("a diff request has no positive integer \"id\"" +
                  (request.problem.empty() ? std::string() : " (" + request.problem + ")"));
        }
        if (!request.problem.empty()) {
            answerError(request.id, "malformed request: " + request.problem);
        } else if (request.hasProtocol) {
            answerError(request.id, "malformed request: unknown key \"protocol\"");
        } else if (!request.hasOld || !request.hasNew) {
            answerError(request.id, "malformed request: \"old\" and \"new\" are required");
        } else {
            answerDiff(request);
        }
    } else {
        fatal("unknown request type \"" + request.type + "\"");
    }
}

static void serve() {
    char *buffer = nullptr;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&buffer, &capacity, stdin)) >= 0) {
        const char *begin = buffer;
        const char *end = buffer + length;
        if (end > begin && end[-1] == '\n') --end;
        // One pool per request for our own objects (GNUstep autoreleases inside -[NSNumber
        // initWithLongLong:], for one); answerDiff drains IGListKit's objects in a pool of its own.
        @autoreleasepool {
            serveLine(begin, end);
        }
    }
    free(buffer);
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", IGLK_ENGINE_LABEL);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--version]\n(serves difflab-engine/1 on stdin/stdout)\n", argv[0]);
        return 64;
    }
    serve();
    return 0;
}
