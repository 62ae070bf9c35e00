#include "scene.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace peers {
namespace {

// The records of a text file: non-empty lines not starting with '#', split on whitespace.
class Records {
 public:
  explicit Records(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw SceneError(path + ": cannot open");
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      std::istringstream words(line);
      std::vector<std::string> tokens;
      for (std::string w; words >> w;) tokens.push_back(w);
      if (tokens.empty() || tokens[0][0] == '#') continue;
      records_.push_back({number, std::move(tokens)});
    }
    last_line_ = number;
  }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw SceneError(path_ + ":" + std::to_string(line) + ": " + message);
  }

  bool done() const { return next_ >= records_.size(); }

  // The next record; it must start with `keyword` (when not empty) and have `arity` tokens
  // after the first one (when arity >= 0).
  const std::vector<std::string>& take(const std::string& keyword, int arity, int* line) {
    if (done()) fail(last_line_, "file ends before the `" + keyword + "` line");
    const auto& r = records_[next_++];
    *line = r.first;
    if (!keyword.empty() && r.second[0] != keyword)
      fail(r.first, "expected `" + keyword + "`, found `" + r.second[0] + "`");
    if (arity >= 0 && static_cast<int>(r.second.size()) != arity + 1)
      fail(r.first, "`" + r.second[0] + "` takes " + std::to_string(arity) + " values, found " +
                        std::to_string(r.second.size() - 1));
    return r.second;
  }

  double number(int line, const std::string& token) const {
    errno = 0;
    char* end = nullptr;
    double x = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || !std::isfinite(x))
      fail(line, "`" + token + "` is not a finite number");
    return x;
  }

  long count(int line, const std::string& token) const {
    char* end = nullptr;
    errno = 0;
    long n = std::strtol(token.c_str(), &end, 10);
    if (end == token.c_str() || *end != '\0' || n < 0 || errno == ERANGE)
      fail(line, "`" + token + "` is not a non-negative integer");
    return n;
  }

  Vec3 vector(int line, const std::vector<std::string>& t, size_t first) const {
    return {number(line, t[first]), number(line, t[first + 1]), number(line, t[first + 2])};
  }

 private:
  std::string path_;
  std::vector<std::pair<int, std::vector<std::string>>> records_;
  size_t next_ = 0;
  int last_line_ = 0;
};

std::string directory_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace

Mesh load_off(const std::string& path, bool convex) {
  Records r(path);
  int line = 0;
  r.take("OFF", 0, &line);
  const auto& counts = r.take("", 2, &line);
  long nv = r.count(line, counts[0]), nf = r.count(line, counts[1]);
  Mesh mesh;
  mesh.path = path;
  mesh.convex = convex;
  mesh.vertices.reserve(nv);
  for (long i = 0; i < nv; ++i) {
    const auto& t = r.take("", 2, &line);
    mesh.vertices.push_back(r.vector(line, t, 0));
  }
  for (long f = 0; f < nf; ++f) {
    const auto& t = r.take("", -1, &line);
    long k = r.count(line, t[0]);
    if (k < 3 || static_cast<long>(t.size()) != k + 1)
      r.fail(line, "a face needs a count k >= 3 and k vertex indices");
    std::vector<int> face;
    for (long j = 1; j <= k; ++j) {
      long index = r.count(line, t[j]);
      if (index >= nv) r.fail(line, "vertex index " + t[j] + " out of range");
      face.push_back(static_cast<int>(index));
    }
    for (long j = 1; j + 1 < k; ++j) mesh.triangles.push_back({face[0], face[j], face[j + 1]});
  }
  if (!r.done()) r.fail(line + 1, "text after the last face");
  for (const Vec3& p : mesh.vertices) {
    double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (n > mesh.radius) mesh.radius = n;
  }
  return mesh;
}

Scene load_scene(const std::string& path) {
  Records r(path);
  Scene scene;
  int line = 0;
  if (r.take("colldet-scene", 1, &line)[1] != "1") r.fail(line, "unsupported scene version");
  scene.name = r.take("name", 1, &line)[1];
  const auto& b = r.take("box", 6, &line);
  scene.box_min = r.vector(line, b, 1);
  scene.box_max = r.vector(line, b, 4);
  for (int c = 0; c < 3; ++c)
    if (!(scene.box_max[c] > scene.box_min[c])) r.fail(line, "empty box");
  scene.frames = r.count(line, r.take("frames", 1, &line)[1]);
  long mesh_count = r.count(line, r.take("meshes", 1, &line)[1]);
  const std::string dir = directory_of(path);
  for (long i = 0; i < mesh_count; ++i) {
    const auto& m = r.take("mesh", 3, &line);
    if (r.count(line, m[1]) != i) r.fail(line, "expected mesh index " + std::to_string(i));
    if (m[3] != "0" && m[3] != "1") r.fail(line, "convex flag must be 0 or 1");
    scene.meshes.push_back(load_off(dir + "/" + m[2], m[3] == "1"));
  }
  long object_count = r.count(line, r.take("objects", 1, &line)[1]);
  for (long k = 0; k < object_count; ++k) {
    const auto& o = r.take("obj", 13, &line);
    Object object;
    long mesh = r.count(line, o[1]);
    if (mesh >= mesh_count) r.fail(line, "mesh index out of range");
    object.mesh = static_cast<int>(mesh);
    object.p0 = r.vector(line, o, 2);
    object.v = r.vector(line, o, 5);
    object.a = r.vector(line, o, 8);
    object.w = r.vector(line, o, 11);
    scene.objects.push_back(object);
  }
  if (!r.done()) r.fail(line + 1, "text after the last object");
  return scene;
}

}  // namespace peers
