// The scene motion model of FORMAT.md, one IEEE-754 double operation per step, left to right,
// in the order of the reference pose.h (compile with -ffp-contract=off, no fast-math): poses are
// bit-identical to colldet's on the same libm.
#pragma once

#include <cmath>

#include "scene.hpp"

namespace peers {

struct Pose {
  double q[4];  // (w, x, y, z), not re-normalised
  double R[9];  // row-major rotation from q
  double t[3];
};

inline void quat_from_rotvec(const double r[3], double q[4]) {
  double th = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  if (th == 0.0) {
    q[0] = 1.0; q[1] = 0.0; q[2] = 0.0; q[3] = 0.0;
    return;
  }
  double h = 0.5 * th;
  double s = std::sin(h) / th;
  q[0] = std::cos(h); q[1] = r[0] * s; q[2] = r[1] * s; q[3] = r[2] * s;
}

// o = a * b (Hamilton product; b is applied first)
inline void quat_mul(const double a[4], const double b[4], double o[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  o[0] = w; o[1] = x; o[2] = y; o[3] = z;
}

inline void quat_to_matrix(const double q[4], double m[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double xx = x * x, yy = y * y, zz = z * z;
  double xy = x * y, xz = x * z, yz = y * z;
  double wx = w * x, wy = w * y, wz = w * z;
  m[0] = 1.0 - 2.0 * (yy + zz); m[1] = 2.0 * (xy - wz); m[2] = 2.0 * (xz + wy);
  m[3] = 2.0 * (xy + wz); m[4] = 1.0 - 2.0 * (xx + zz); m[5] = 2.0 * (yz - wx);
  m[6] = 2.0 * (xz - wy); m[7] = 2.0 * (yz + wx); m[8] = 1.0 - 2.0 * (xx + yy);
}

// Mirror fold of x into [lo, hi] (a point bouncing between the two); the centre if hi <= lo.
inline double fold(double x, double lo, double hi) {
  if (!(hi > lo)) return 0.5 * (lo + hi);
  double L = hi - lo;
  double P = 2.0 * L;
  double t = std::fmod(x - lo, P);
  if (t < 0.0) t = t + P;
  if (t > L) t = P - t;
  return lo + t;
}

// Pose of `o` (whose mesh has bounding radius r) at integer frame f in the box [bmin, bmax].
inline Pose pose_at(const Object& o, double r, const Vec3& bmin, const Vec3& bmax, long f) {
  Pose p;
  double fd = static_cast<double>(f);
  double wf[3] = {o.w[0] * fd, o.w[1] * fd, o.w[2] * fd};
  double qw[4], qa[4];
  quat_from_rotvec(wf, qw);
  quat_from_rotvec(o.a.data(), qa);
  quat_mul(qw, qa, p.q);
  quat_to_matrix(p.q, p.R);
  for (int c = 0; c < 3; ++c) p.t[c] = fold(o.p0[c] + o.v[c] * fd, bmin[c] + r, bmax[c] - r);
  return p;
}

}  // namespace peers
