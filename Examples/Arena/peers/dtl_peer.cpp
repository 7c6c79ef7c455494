// The arena's dtl peer, the C++ half: Debian's libdtl-dev (Wu, Manber and Myers's O(NP) algorithm,
// header-only) on two lists of integers, self-timed around the library's call.
//
//     dtl_peer < requests > answers
//
// Scripts/arena builds it from the Debian header (c++ -O2 -std=c++17) into .build/arena-peers/;
// arena_peer.py's `dtl` peer starts it once and speaks difflab-engine/1 for it (the identifiers
// numbered 0, 1, 2, ... and the answer converted by the one conversion every peer shares), so this
// half knows nothing of JSON. One request, one answer, until standard input ends:
//
//     request: N M, then N integers (the old list), then M integers (the new list), all separated
//              by white space
//     answer:  one line: NANOSECONDS COUNT, then COUNT runs, each a letter and a length:
//              C (common: both lists), D (deleted from the old list), A (added from the new list);
//              in list order, the runs cover the old list (C and D) and the new list (C and A)
//
// NANOSECONDS is the time of `compose()` (the diff) and of reading its edit script, by
// std::chrono::steady_clock. A request that cannot be read (not numbers, negative or over the
// limit, standard input ending inside it) or memory running out ends the process with status 65
// and a message on standard error: the Python half then answers the lab with an error. The timed
// region includes dtl::Diff's constructor, which copies both lists.
#include <dtl/dtl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

// The most elements of one list this half accepts. Lists grow as their numbers are read, so a
// request's lengths alone never allocate: a hostile "N M" with nothing after it costs nothing.
const long long maxElements = 100000000;

[[noreturn]] void fail(const std::string &why) {
    std::cerr << "dtl_peer: " << why << "\n";
    std::exit(65);
}

bool readCount(long long &count) {
    if (!(std::cin >> count)) return false;
    if (count < 0 || count > maxElements) fail("a list length must be 0 to " + std::to_string(maxElements));
    return true;
}

void readList(std::vector<long long> &list, long long count) {
    list.clear();
    for (long long i = 0; i < count; ++i) {
        long long element = 0;
        if (!(std::cin >> element)) fail("the request ended inside a list, or held something that is not an integer");
        list.push_back(element);
    }
}

}  // namespace

int serve() {
    std::ios::sync_with_stdio(false);
    std::vector<long long> oldList, newList;
    long long n = 0, m = 0;
    while (readCount(n)) {
        if (!readCount(m)) fail("a request gave the old list's length but not the new list's");
        readList(oldList, n);
        readList(newList, m);
        const auto started = std::chrono::steady_clock::now();
        dtl::Diff<long long, std::vector<long long>> diff(oldList, newList);
        diff.compose();
        const auto script = diff.getSes().getSequence();
        std::vector<std::pair<char, long long>> runs;
        for (const auto &step : script) {
            const char letter = step.second.type == dtl::SES_COMMON ? 'C' : step.second.type == dtl::SES_DELETE ? 'D' : 'A';
            if (!runs.empty() && runs.back().first == letter) {
                runs.back().second += 1;
            } else {
                runs.emplace_back(letter, 1);
            }
        }
        const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started);
        std::cout << elapsed.count() << ' ' << runs.size();
        for (const auto &run : runs) std::cout << ' ' << run.first << run.second;
        std::cout << '\n' << std::flush;
    }
    if (!std::cin.eof()) fail("a list length is not a number");
    return 0;
}

int main() {
    try {
        return serve();
    } catch (const std::bad_alloc &) {
        fail("out of memory");
    }
}
