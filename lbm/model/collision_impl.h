/* collision_impl.h: the collision text, included by collision.h once per precision with LBM_REAL,
 * LBM_SFX and LBM_COLL defined. No include guard on purpose. The populations are stored shifted
 * by their rest weights, g = f - w (so sum g = rho - 1): single precision then keeps the digits
 * of the deviations instead of spending them on the constant 1/3, 1/18, 1/36 (mass stays
 * conserved to 1e-5 over thousands of steps at omega near 2, where plain f drifted 7e-5). */
typedef LBM_REAL LBM_SFX(lbm_real);

/* from the density deviation r = sum g and the momentum j: drho, rho and the velocity of the
 * equilibrium u = (j + force/2) / rho */
static inline LBM_HD void LBM_SFX(lbm_velocity)(LBM_REAL r, LBM_REAL jx, LBM_REAL jy, LBM_REAL jz,
                                                const LBM_COLL *p, int forced, LBM_REAL *drho,
                                                LBM_REAL *rho, LBM_REAL u[3])
{
    if (forced) {
        jx += (LBM_REAL)0.5 * p->g[0];
        jy += (LBM_REAL)0.5 * p->g[1];
        jz += (LBM_REAL)0.5 * p->g[2];
    }
    *drho = r;
    *rho = (LBM_REAL)1 + r;
    {
        const LBM_REAL inv = (LBM_REAL)1 / *rho; /* one division per cell, not three */
        u[0] = jx * inv;
        u[1] = jy * inv;
        u[2] = jz * inv;
    }
}

/* The moments, pair by pair: ps[k] = f[i] + f[o] and pd[k] = f[i] - f[o] for the k-th pair
 * (i, o) = (2k + 1, 2k + 2) of d3q19.h, then the density deviation drho = rho - 1 = sum g,
 * momentum j = sum c g (pair k's velocity is that of its first member) and the velocity of the
 * equilibrium u = (j + force/2) / rho. Summed as trees: 39 additions per cell instead of 76 and
 * 27 multiplications by zero, and short dependency chains. */
static inline LBM_HD void LBM_SFX(lbm_moments)(const LBM_REAL f[19], const LBM_COLL *p, int forced,
                                               LBM_REAL *drho, LBM_REAL *rho, LBM_REAL u[3])
{
    LBM_REAL ps[9], pd[9];
#define LBM_PAIR_SUMS_(i, o, cx, cy, cz)                                                           \
    ps[((i)-1) / 2] = f[i] + f[o];                                                                 \
    pd[((i)-1) / 2] = f[i] - f[o];
    LBM_D3Q19_PAIRS(LBM_PAIR_SUMS_)
#undef LBM_PAIR_SUMS_
    /* pairs: 0 (1,0,0) 1 (0,1,0) 2 (0,0,1) 3 (1,1,0) 4 (1,-1,0) 5 (1,0,1) 6 (1,0,-1) 7 (0,1,1)
     * 8 (0,1,-1) */
    const LBM_REAL r = ((f[0] + ps[0]) + (ps[1] + ps[2])) +
                       (((ps[3] + ps[4]) + (ps[5] + ps[6])) + (ps[7] + ps[8]));
    LBM_REAL jx = (pd[0] + pd[3]) + (pd[4] + (pd[5] + pd[6]));
    LBM_REAL jy = (pd[1] + pd[3]) + ((pd[7] + pd[8]) - pd[4]);
    LBM_REAL jz = (pd[2] + pd[5]) + ((pd[7] - pd[8]) - pd[6]);
    LBM_SFX(lbm_velocity)(r, jx, jy, jz, p, forced, drho, rho, u);
}

/* 3/2 u.u */
static inline LBM_HD LBM_REAL LBM_SFX(lbm_uu)(const LBM_REAL u[3])
{
    return (LBM_REAL)1.5 * LBM_FMA(u[0], u[0], LBM_FMA(u[1], u[1], u[2] * u[2]));
}

/* The equilibrium of a pair with velocities +-c and weight wi is e +- a with
 * e = wi (drho + rho (9/2 (c.u)^2 - 3/2 u.u)) and a = 3 wi rho c.u; per weight class the
 * factors are worked out once per cell (struct lbm_eq_*), so a pair costs a few operations. */
struct LBM_SFX(lbm_eq) {
    LBM_REAL base[2], quad[2], lin[2]; /* [0]: wi = 1/18, [1]: 1/36 */
};

static inline LBM_HD struct LBM_SFX(lbm_eq)
    LBM_SFX(lbm_eq_factors)(LBM_REAL drho, LBM_REAL rho, LBM_REAL uu, LBM_REAL scale)
{
    struct LBM_SFX(lbm_eq) e;
    const LBM_REAL b = LBM_FMA(-rho, uu, drho) * scale, r = rho * scale;
    e.base[0] = b * (LBM_REAL)LBM_W_FACE;
    e.base[1] = b * (LBM_REAL)LBM_W_EDGE;
    e.quad[0] = r * (LBM_REAL)(4.5 * LBM_W_FACE);
    e.quad[1] = r * (LBM_REAL)(4.5 * LBM_W_EDGE);
    e.lin[0] = r * (LBM_REAL)(3.0 * LBM_W_FACE);
    e.lin[1] = r * (LBM_REAL)(3.0 * LBM_W_EDGE);
    return e;
}

/* f' = f + w (e - f) written as (1 - w) f + w e: the equilibrium factors are made with scale w,
 * so each population is one fused multiply-add after its equilibrium, and a pair's equilibria
 * w (e +- a) are one fused multiply-add each (a = lin c.u folded in): 6 float operations a pair
 * instead of 9, which core-bound kernels (16-bit lattices, a CPU core) pay for. */
static inline LBM_HD void LBM_SFX(lbm_bgk)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL drho, rho, u[3];
    LBM_SFX(lbm_moments)(f, p, forced, &drho, &rho, u);
    const LBM_REAL w = p->omega, uu = LBM_SFX(lbm_uu)(u);
    const LBM_REAL keep = (LBM_REAL)1 - w, fw = (LBM_REAL)1 - (LBM_REAL)0.5 * w;
    const LBM_REAL ug = forced ? u[0] * p->g[0] + u[1] * p->g[1] + u[2] * p->g[2] : (LBM_REAL)0;
    const struct LBM_SFX(lbm_eq) e = LBM_SFX(lbm_eq_factors)(drho, rho, uu, w);
    {
        const LBM_REAL eq0 = (LBM_REAL)LBM_W_REST * (LBM_FMA(-rho, uu, drho) * w); /* w e_0 */
        f[0] = LBM_FMA(keep, f[0], eq0);
        if (forced) f[0] += fw * (LBM_REAL)LBM_W_REST * (LBM_REAL)(-3) * ug;
    }
#define LBM_BGK_(i, o, cx, cy, cz)                                                                 \
    {                                                                                              \
        const int k_ = LBM_WCLASS(cx, cy, cz);                                                     \
        const LBM_REAL cu = LBM_CDOT(cx, cy, cz, u[0], u[1], u[2]);                                \
        const LBM_REAL ev = LBM_FMA(e.quad[k_], cu * cu, e.base[k_]);                              \
        f[i] = LBM_FMA(keep, f[i], LBM_FMA(e.lin[k_], cu, ev));                                    \
        f[o] = LBM_FMA(keep, f[o], LBM_FMA(-e.lin[k_], cu, ev));                                   \
        if (forced) {                                                                              \
            const LBM_REAL wi = (LBM_REAL)LBM_WEIGHT(cx, cy, cz);                                  \
            const LBM_REAL cg = LBM_CDOT(cx, cy, cz, p->g[0], p->g[1], p->g[2]);                   \
            f[i] += fw * wi * ((LBM_REAL)3 * (cg - ug) + (LBM_REAL)9 * cu * cg);                   \
            f[o] += fw * wi * ((LBM_REAL)3 * (-cg - ug) + (LBM_REAL)9 * cu * cg);                  \
        }                                                                                          \
    }
    LBM_D3Q19_PAIRS(LBM_BGK_)
#undef LBM_BGK_
}

/* Two relaxation times: the pair's even part (f_i + f_o)/2 relaxes with omega towards e, the
 * odd part (f_i - f_o)/2 with omega_minus towards a, written with f_i and f_o alone:
 * f_i' = (1 - (w+ + w-)/2) f_i + ((w- - w+)/2) f_o + w+ e + w- a (the pair sums of the moments
 * would have to stay live, which cost the GPU kernels registers). As in BGK, w- a = (w- lin) c.u
 * goes into one fused multiply-add on each side, w+ e +- w- a: 8 float operations a pair after
 * c.u, where the product w- a and its sum and difference with w+ e took 3 of 9 (with a force:
 * one fused multiply-add of w- a and the force's odd term, then their sum and difference). */
static inline LBM_HD void LBM_SFX(lbm_trt)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL drho, rho, u[3];
    LBM_SFX(lbm_moments)(f, p, forced, &drho, &rho, u);
    const LBM_REAL wp = p->omega, wm = p->omega_minus, uu = LBM_SFX(lbm_uu)(u);
    const LBM_REAL keep = (LBM_REAL)1 - (LBM_REAL)0.5 * (wp + wm), mix = (LBM_REAL)0.5 * (wm - wp);
    const LBM_REAL fp = (LBM_REAL)1 - (LBM_REAL)0.5 * wp, fm = (LBM_REAL)1 - (LBM_REAL)0.5 * wm;
    const LBM_REAL ug = forced ? u[0] * p->g[0] + u[1] * p->g[1] + u[2] * p->g[2] : (LBM_REAL)0;
    /* e and a already multiplied by their rates */
    const struct LBM_SFX(lbm_eq) ep = LBM_SFX(lbm_eq_factors)(drho, rho, uu, wp);
    const struct LBM_SFX(lbm_eq) em = LBM_SFX(lbm_eq_factors)(drho, rho, uu, wm);
    {
        const LBM_REAL eq0 = (LBM_REAL)LBM_W_REST * LBM_FMA(-rho, uu, drho);
        f[0] = LBM_FMA(wp, eq0 - f[0], f[0]);
        if (forced) f[0] += fp * (LBM_REAL)LBM_W_REST * (LBM_REAL)(-3) * ug;
    }
#define LBM_TRT_(i, o, cx, cy, cz)                                                                 \
    {                                                                                              \
        const int k_ = LBM_WCLASS(cx, cy, cz);                                                     \
        const LBM_REAL cu = LBM_CDOT(cx, cy, cz, u[0], u[1], u[2]);                                \
        const LBM_REAL ev = LBM_FMA(ep.quad[k_], cu * cu, ep.base[k_]);                            \
        LBM_REAL ei, eo; /* w+ e +- w- a, the forcing's even and odd parts added */                \
        if (forced) {                                                                              \
            const LBM_REAL wi = (LBM_REAL)LBM_WEIGHT(cx, cy, cz);                                  \
            const LBM_REAL cg = LBM_CDOT(cx, cy, cz, p->g[0], p->g[1], p->g[2]);                   \
            const LBM_REAL ge = ev + fp * wi * ((LBM_REAL)9 * cu * cg - (LBM_REAL)3 * ug);         \
            const LBM_REAL od = LBM_FMA(em.lin[k_], cu, fm * wi * (LBM_REAL)3 * cg);               \
            ei = ge + od;                                                                          \
            eo = ge - od;                                                                          \
        } else {                                                                                   \
            ei = LBM_FMA(em.lin[k_], cu, ev);                                                      \
            eo = LBM_FMA(-em.lin[k_], cu, ev);                                                     \
        }                                                                                          \
        const LBM_REAL fi = f[i], fo = f[o];                                                       \
        f[i] = LBM_FMA(keep, fi, LBM_FMA(mix, fo, ei));                                            \
        f[o] = LBM_FMA(keep, fo, LBM_FMA(mix, fi, eo));                                            \
    }
    LBM_D3Q19_PAIRS(LBM_TRT_)
#undef LBM_TRT_
}

static inline LBM_HD void LBM_SFX(lbm_mrt)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL m[19], drho, rho, u[3];
    LBM_MRT_MOMENTS(m, f); /* m[0] = sum g, m[3], m[5], m[7] = j */
    LBM_SFX(lbm_velocity)(m[0], m[3], m[5], m[7], p, forced, &drho, &rho, u);
    {
        const LBM_REAL jx = rho * u[0], jy = rho * u[1], jz = rho * u[2];
        /* j_a j_b / rho = rho u_a u_b: no division */
        const LBM_REAL jj = rho * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        const LBM_REAL pxx = (LBM_REAL)3 * jx * u[0] - jj, pww = jy * u[1] - jz * u[2];
        /* moments of g = f - w: only rho, e and eps of the weights are non-zero (1, -11, 3) */
        LBM_REAL eq[19];
        eq[0] = drho;
        eq[1] = (LBM_REAL)(-11) * drho + (LBM_REAL)19 * jj;
        eq[2] = (LBM_REAL)3 * drho - (LBM_REAL)5.5 * jj;
        eq[3] = jx;
        eq[4] = (LBM_REAL)(-2.0 / 3.0) * jx;
        eq[5] = jy;
        eq[6] = (LBM_REAL)(-2.0 / 3.0) * jy;
        eq[7] = jz;
        eq[8] = (LBM_REAL)(-2.0 / 3.0) * jz;
        eq[9] = pxx;
        eq[10] = (LBM_REAL)(-0.5) * pxx;
        eq[11] = pww;
        eq[12] = (LBM_REAL)(-0.5) * pww;
        eq[13] = jx * u[1];
        eq[14] = jy * u[2];
        eq[15] = jx * u[2];
        eq[16] = eq[17] = eq[18] = 0;
        LBM_UNROLL
        for (int k = 0; k < 19; k++)
            m[k] -= p->s[k] * (m[k] - eq[k]);
    }
    if (forced) {
        LBM_REAL F[19], mf[19];
        const LBM_REAL ug = u[0] * p->g[0] + u[1] * p->g[1] + u[2] * p->g[2];
#define LBM_GUO_(i, cx, cy, cz, o)                                                                 \
    {                                                                                              \
        const LBM_REAL cu = LBM_CDOT(cx, cy, cz, u[0], u[1], u[2]);                                \
        const LBM_REAL cg = LBM_CDOT(cx, cy, cz, p->g[0], p->g[1], p->g[2]);                       \
        F[i] =                                                                                     \
            (LBM_REAL)LBM_WEIGHT(cx, cy, cz) * ((LBM_REAL)3 * (cg - ug) + (LBM_REAL)9 * cu * cg);  \
    }
        LBM_D3Q19(LBM_GUO_)
#undef LBM_GUO_
        LBM_MRT_MOMENTS(mf, F);
        LBM_UNROLL
        for (int k = 0; k < 19; k++)
            m[k] += ((LBM_REAL)1 - (LBM_REAL)0.5 * p->s[k]) * mf[k];
    }
    {
        const LBM_REAL inv[19] = LBM_MRT_INV_NORMS;
        LBM_UNROLL
        for (int k = 0; k < 19; k++)
            m[k] *= inv[k];
    }
    LBM_MRT_INVERSE(f, m);
}

static inline LBM_HD void LBM_SFX(lbm_collide)(LBM_REAL f[19], const LBM_COLL *p, int collision,
                                               int forced)
{
    if (collision == LBM_TRT)
        LBM_SFX(lbm_trt)(f, p, forced);
    else if (collision == LBM_MRT)
        LBM_SFX(lbm_mrt)(f, p, forced);
    else
        LBM_SFX(lbm_bgk)(f, p, forced);
}
