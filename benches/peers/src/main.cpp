// peers: plays colldet scene files through colldet (C API), FCL and Bullet and prints, per
// scene, ms per frame (median over frames) with the broad/narrow split where the library gives
// it, the ratio to colldet (the first library chosen) and each library's colliding-pair total (DISAGREE when they differ), then a Markdown
// summary. Exit status 1 when a scene cannot be read or, with --expect N, when a library's
// total differs from N; a disagreement between libraries is printed (DISAGREE), not fatal.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bullet_peer.hpp"
#include "ccd.hpp"
#include "colldet_peer.hpp"
#include "distance.hpp"
#include "fcl_peer.hpp"
#include "peer.hpp"

namespace {

using namespace peers;

const char* const kDefaultScenes[] = {
    "cw-ellipsoid-12", "cw-ellipsoid-100", "cw-ellipsoid-500", "cw-ellipsoid-1000",
    "cw-rod-12",       "cw-rod-100",       "cw-rod-500",       "cw-rod-1000",
    "cw-plate-12",     "cw-plate-100",     "cw-plate-500",     "cw-plate-1000",
    "mesh-zoo",        "broad-10k",        "broad-100k"};

struct Library {
  const char* name;
  std::function<std::unique_ptr<Peer>(const Scene&)> make;
};

const std::vector<Library>& libraries() {
  static const std::vector<Library> all = {
      {"colldet", make_colldet_peer},
      {"FCL", make_fcl_peer},
      {"Bullet", make_bullet_peer},
  };
  return all;
}

const char* kUsage =
    "usage: peers [--scenes DIR] [--frames N] [--only NAME,...] [--expect TOTAL] [SCENE ...]\n"
    "  SCENE: a scene file, or a name in DIR (default ../shared/scenes); without SCENE, every\n"
    "  peer scene found in DIR. --only: a subset of the libraries (colldet, FCL, Bullet);\n  ratios are to the first one chosen.\n"
    "  --expect: also fail unless every library's colliding-pair total equals TOTAL.\n"
    "  --ccd: continuous collision on the CCD scenes (default ccd-bullets, ccd-spinners) through\n"
    "  FCL-naive, FCL-CA and Bullet (--only picks among them), scored against\n"
    "  DIR/NAME.ccd-expected.txt: hits found, missed, false, ms per frame interval (median).\n"
    "  --distance POSES [--meshes DIR] [--repeats N]: mesh-mesh distance and tolerance per\n"
    "  query, colldet against FCL's distance on RSS and OBBRSS models, on the mesh pairs and\n"
    "  poses of POSES (test/zoo-distance.poses; meshes from DIR, default\n"
    "  ../../crates/colldet-cli/tests/scenes/zoo-meshes; N rounds, default 20).\n";

bool file_exists(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f) std::fclose(f);
  return f != nullptr;
}

std::string resolve(const std::string& dir, const std::string& scene) {
  return file_exists(scene) ? scene : dir + "/" + scene + ".scene";
}

std::string ms(const std::vector<double>& v) {
  if (v.empty()) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", median(v));
  return buffer;
}

long parse_count(const char* flag, const char* value) {
  char* end = nullptr;
  long n = value ? std::strtol(value, &end, 10) : -1;
  if (!value || *end != '\0' || n < 0) {
    std::fprintf(stderr, "peers: %s needs a non-negative integer\n%s", flag, kUsage);
    std::exit(2);
  }
  return n;
}

// --ccd: one table per CCD scene, then a Markdown summary.
int main_ccd(const std::string& dir, long frames, const std::string& only,
             std::vector<std::string> scenes) {
  if (scenes.empty()) scenes = {"ccd-bullets", "ccd-spinners"};
  std::vector<std::string> methods;
  for (const std::string& m : ccd_methods())
    if (only.empty() || only.find("," + m + ",") != std::string::npos) methods.push_back(m);
  bool failed = false;
  std::vector<std::string> rows;
  for (const std::string& name : scenes) {
    std::string path = resolve(dir, name);
    try {
      Scene scene = load_scene(path);
      std::string stem = path.size() > 6 && path.substr(path.size() - 6) == ".scene"
                             ? path.substr(0, path.size() - 6)
                             : path;
      CcdExpected expected = load_ccd_expected(stem + ".ccd-expected.txt");
      long n = frames < 0 ? scene.frames : std::min(frames, scene.frames);
      std::printf("scene %s (CCD): %ld intervals, %zu certified hits, %zu ambiguous\n",
                  scene.name.c_str(), n > 0 ? n - 1 : 0, expected.hits.size(),
                  expected.ambiguous.size());
      std::printf("  %-12s %8s %8s %8s %8s %10s\n", "library", "found", "missed", "false", "A",
                  "ms/frame");
      std::string row = "| " + scene.name + " |";
      for (const std::string& m : methods) {
        CcdRun run = play_ccd(m, scene, n);
        CcdScore s = score(run, expected);
        double ms = median(run.frame_ms);
        std::printf("  %-12s %8ld %8ld %8ld %8ld %10.3f\n", m.c_str(), s.found, s.missed,
                    s.false_hits, s.ambiguous, ms);
        std::fflush(stdout);
        char cell[128];
        std::snprintf(cell, sizeof cell, " %ld / %ld / %ld / %.3f |", s.found, s.missed,
                      s.false_hits, ms);
        row += cell;
      }
      rows.push_back(row);
      std::printf("\n");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "peers: %s: %s\n", path.c_str(), e.what());
      failed = true;
    }
  }
  std::printf("| scene |");
  for (const std::string& m : methods) std::printf(" %s found / missed / false / ms |", m.c_str());
  std::printf("\n|---|");
  for (size_t i = 0; i < methods.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "../shared/scenes";
  long frames = -1, expect = -1;
  std::string only;
  bool ccd = false;
  std::string distance_poses;
  std::string mesh_dir = "../../crates/colldet-cli/tests/scenes/zoo-meshes";
  long repeats = 20;
  std::vector<std::string> scenes;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--scenes" && value) dir = argv[++i];
    else if (arg == "--frames") frames = parse_count("--frames", value), ++i;
    else if (arg == "--expect") expect = parse_count("--expect", value), ++i;
    else if (arg == "--only" && value) only = "," + std::string(argv[++i]) + ",";
    else if (arg == "--ccd") ccd = true;
    else if (arg == "--distance" && value) distance_poses = argv[++i];
    else if (arg == "--meshes" && value) mesh_dir = argv[++i];
    else if (arg == "--repeats") repeats = parse_count("--repeats", value), ++i;
    else if (arg == "-h" || arg == "--help" || arg.rfind("--", 0) == 0) {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    } else scenes.push_back(arg);
  }
  if (ccd) return main_ccd(dir, frames, only, scenes);
  if (!distance_poses.empty()) return main_distance(distance_poses, mesh_dir, repeats);
  std::vector<std::string> paths;
  if (scenes.empty()) {
    for (const char* s : kDefaultScenes)
      if (file_exists(resolve(dir, s))) paths.push_back(resolve(dir, s));
    if (paths.empty()) {
      std::printf("peers: no scene files in %s (pass --scenes DIR); nothing to compare\n",
                  dir.c_str());
      return 0;
    }
  } else {
    for (const auto& s : scenes) paths.push_back(resolve(dir, s));
  }
  std::vector<const Library*> chosen;
  for (const Library& l : libraries())
    if (only.empty() || only.find("," + std::string(l.name) + ",") != std::string::npos)
      chosen.push_back(&l);
  if (chosen.empty()) {
    std::fprintf(stderr, "peers: --only names no library\n%s", kUsage);
    return 2;
  }

  bool failed = false;
  std::vector<std::string> rows;
  for (const std::string& path : paths) {
    Scene scene;
    try {
      scene = load_scene(path);
    } catch (const SceneError& e) {
      std::fprintf(stderr, "peers: %s\n", e.what());
      failed = true;
      continue;
    }
    long n = frames < 0 ? scene.frames : std::min(frames, scene.frames);
    std::vector<Run> runs;
    try {
      for (const Library* l : chosen) {
        auto peer = l->make(scene);
        runs.push_back(play(*peer, scene, n));
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "peers: %s: %s\n", path.c_str(), e.what());
      failed = true;
      continue;
    }
    std::printf("scene %s: %zu objects, %ld frames\n", scene.name.c_str(), scene.objects.size(),
                n);
    std::printf("  %-10s %10s %10s %10s %10s %14s\n", "library", "ms/frame", "broad", "narrow",
                ("vs " + std::string(chosen[0]->name)).c_str(), "pairs total");
    double reference = median(runs[0].frame_ms);
    bool agree = true;
    std::string row = "| " + scene.name + " |";
    for (const Run& r : runs) {
      double m = median(r.frame_ms);
      std::printf("  %-10s %10.3f %10s %10s %9.2fx %14ld\n", r.name.c_str(), m,
                  ms(r.broad_ms).c_str(), ms(r.narrow_ms).c_str(), m / reference, r.total());
      char cell[96];
      std::snprintf(cell, sizeof cell, " %.3f (%.2fx) |", m, m / reference);
      row += cell;
      agree = agree && r.total() == runs[0].total();
      if (expect >= 0 && r.total() != expect) {
        std::printf("  UNEXPECTED: %s counts %ld colliding pairs, expected %ld\n", r.name.c_str(),
                    r.total(), expect);
        failed = true;
      }
    }
    if (agree) {
      std::printf("  totals agree\n\n");
      row += " " + std::to_string(runs[0].total()) + " (all agree) |";
    } else {
      std::printf("  DISAGREE:");
      row += " DISAGREE";
      for (const Run& r : runs) {
        std::printf(" %s %ld", r.name.c_str(), r.total());
        row += " " + r.name + " " + std::to_string(r.total());
      }
      std::printf("\n\n");
      row += " |";
    }
    rows.push_back(row);
  }
  std::printf("| scene |");
  for (const Library* l : chosen) std::printf(" %s ms/frame (vs %s) |", l->name, chosen[0]->name);
  std::printf(" pairs total |\n|---|");
  for (size_t i = 0; i <= chosen.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
  return failed ? 1 : 0;
}
