// Reader of colldet scene files, version 1 (../shared/scenes/FORMAT.md), and of their OFF meshes.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {

using Vec3 = std::array<double, 3>;

// A malformed or unreadable scene or mesh file; the message names the file and line.
struct SceneError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One mesh: vertices exactly as written, faces split into triangles by the fan (i0, ij, ij+1).
struct Mesh {
  std::string path;
  bool convex = false;
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  double radius = 0.0;  // max over all listed vertices of sqrt(x*x + y*y + z*z)
};

// One object: its mesh and the twelve numbers of its motion.
struct Object {
  int mesh = 0;
  Vec3 p0{}, v{}, a{}, w{};
};

struct Scene {
  std::string name;
  Vec3 box_min{}, box_max{};
  long frames = 0;
  std::vector<Mesh> meshes;
  std::vector<Object> objects;  // object id = index
};

// Reads the scene file at `path` and every mesh it names (paths relative to the scene's
// directory). Throws SceneError.
Scene load_scene(const std::string& path);

// Reads one OFF file. Throws SceneError.
Mesh load_off(const std::string& path, bool convex);

}  // namespace peers
