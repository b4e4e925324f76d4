/* collision_impl.h: the collision text, included by collision.h once per precision with LBM_REAL,
 * LBM_SFX and LBM_COLL defined. No include guard on purpose. The populations are stored shifted
 * by their rest weights, g = f - w (so sum g = rho - 1): single precision then keeps the digits
 * of the deviations instead of spending them on the constant 1/3, 1/18, 1/36 (mass stays
 * conserved to 1e-5 over thousands of steps at omega near 2, where plain f drifted 7e-5). */
typedef LBM_REAL LBM_SFX(lbm_real);

/* density deviation drho = rho - 1 = sum g, momentum j = sum c g, and the velocity of the
 * equilibrium u = (j + force/2) / rho */
static inline LBM_HD void LBM_SFX(lbm_moments)(const LBM_REAL f[19], const LBM_COLL *p, int forced,
                                               LBM_REAL *drho, LBM_REAL *rho, LBM_REAL u[3])
{
    LBM_REAL r = 0, jx = 0, jy = 0, jz = 0;
#define LBM_ACC_(i, cx, cy, cz, o)                                                                 \
    r += f[i];                                                                                     \
    jx += (LBM_REAL)(cx) * f[i];                                                                   \
    jy += (LBM_REAL)(cy) * f[i];                                                                   \
    jz += (LBM_REAL)(cz) * f[i];
    LBM_D3Q19(LBM_ACC_)
#undef LBM_ACC_
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

static inline LBM_HD void LBM_SFX(lbm_bgk)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL drho, rho, u[3];
    LBM_SFX(lbm_moments)(f, p, forced, &drho, &rho, u);
    const LBM_REAL w = p->omega, uu = (LBM_REAL)1.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    const LBM_REAL fw = (LBM_REAL)1 - (LBM_REAL)0.5 * w;
    const LBM_REAL ug = forced ? u[0] * p->g[0] + u[1] * p->g[1] + u[2] * p->g[2] : (LBM_REAL)0;
#define LBM_BGK_(i, cx, cy, cz, o)                                                                 \
    {                                                                                              \
        const LBM_REAL wi = (LBM_REAL)LBM_WEIGHT(cx, cy, cz);                                      \
        const LBM_REAL cu = (LBM_REAL)(cx) * u[0] + (LBM_REAL)(cy) * u[1] + (LBM_REAL)(cz) * u[2];  \
        const LBM_REAL eq =                                                                        \
            wi * (drho + rho * ((LBM_REAL)3 * cu + (LBM_REAL)4.5 * cu * cu - uu));                 \
        f[i] += w * (eq - f[i]);                                                                   \
        if (forced) {                                                                              \
            const LBM_REAL cg = (LBM_REAL)(cx) * p->g[0] + (LBM_REAL)(cy) * p->g[1] +               \
                                (LBM_REAL)(cz) * p->g[2];                                          \
            f[i] += fw * wi * ((LBM_REAL)3 * (cg - ug) + (LBM_REAL)9 * cu * cg);                   \
        }                                                                                          \
    }
    LBM_D3Q19(LBM_BGK_)
#undef LBM_BGK_
}

static inline LBM_HD void LBM_SFX(lbm_trt)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL drho, rho, u[3];
    LBM_SFX(lbm_moments)(f, p, forced, &drho, &rho, u);
    const LBM_REAL wp = p->omega, wm = p->omega_minus;
    const LBM_REAL uu = (LBM_REAL)1.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    const LBM_REAL fp = (LBM_REAL)1 - (LBM_REAL)0.5 * wp, fm = (LBM_REAL)1 - (LBM_REAL)0.5 * wm;
    const LBM_REAL ug = forced ? u[0] * p->g[0] + u[1] * p->g[1] + u[2] * p->g[2] : (LBM_REAL)0;
    {
        const LBM_REAL eq0 = (LBM_REAL)(1.0 / 3.0) * (drho - rho * uu);
        f[0] += wp * (eq0 - f[0]);
        if (forced)
            f[0] += fp * (LBM_REAL)(1.0 / 3.0) * (LBM_REAL)(-3) * ug;
    }
#define LBM_TRT_(i, o, cx, cy, cz)                                                                 \
    {                                                                                              \
        const LBM_REAL wi = (LBM_REAL)LBM_WEIGHT(cx, cy, cz);                                      \
        const LBM_REAL cu = (LBM_REAL)(cx) * u[0] + (LBM_REAL)(cy) * u[1] + (LBM_REAL)(cz) * u[2];  \
        const LBM_REAL eqp = wi * (drho + rho * ((LBM_REAL)4.5 * cu * cu - uu));                   \
        const LBM_REAL eqm = wi * rho * (LBM_REAL)3 * cu;                                          \
        const LBM_REAL sp_ = (LBM_REAL)0.5 * (f[i] + f[o]), sm_ = (LBM_REAL)0.5 * (f[i] - f[o]);   \
        LBM_REAL dp_ = wp * (eqp - sp_), dm_ = wm * (eqm - sm_);                                   \
        if (forced) {                                                                              \
            const LBM_REAL cg = (LBM_REAL)(cx) * p->g[0] + (LBM_REAL)(cy) * p->g[1] +               \
                                (LBM_REAL)(cz) * p->g[2];                                          \
            dp_ += fp * wi * ((LBM_REAL)9 * cu * cg - (LBM_REAL)3 * ug);                           \
            dm_ += fm * wi * (LBM_REAL)3 * cg;                                                     \
        }                                                                                          \
        f[i] += dp_ + dm_;                                                                         \
        f[o] += dp_ - dm_;                                                                         \
    }
    LBM_D3Q19_PAIRS(LBM_TRT_)
#undef LBM_TRT_
}

static inline LBM_HD void LBM_SFX(lbm_mrt)(LBM_REAL f[19], const LBM_COLL *p, int forced)
{
    LBM_REAL m[19], drho, rho, u[3];
    LBM_SFX(lbm_moments)(f, p, forced, &drho, &rho, u);
    LBM_MRT_MOMENTS(m, f);
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
        const LBM_REAL cu = (LBM_REAL)(cx) * u[0] + (LBM_REAL)(cy) * u[1] + (LBM_REAL)(cz) * u[2];  \
        const LBM_REAL cg = (LBM_REAL)(cx) * p->g[0] + (LBM_REAL)(cy) * p->g[1] +                   \
                            (LBM_REAL)(cz) * p->g[2];                                              \
        F[i] = (LBM_REAL)LBM_WEIGHT(cx, cy, cz) *                                                  \
               ((LBM_REAL)3 * (cg - ug) + (LBM_REAL)9 * cu * cg);                                  \
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
