#!/usr/bin/env python3
"""Label maps of off-the-shelf segmenters, for `featurelab segment-eval --labels`.

    baselines.py METHOD IMAGES_DIR OUT_DIR

METHOD is felzenszwalb (scikit-image, one setting for all photos) or dpgmm (scikit-learn's
Dirichlet-process Gaussian mixture on Lab colour and position, 20 components, no
spatial kernel: the model the KPYP adds its kernel to). Each photo <id>.jpg gets
OUT_DIR/<id>.png, a 16-bit grey PNG of labels; the seconds per photo go to stderr.
Needs python3-skimage and python3-sklearn (apt); CI does not run it.
"""
import os
import sys
import time

import numpy as np
from skimage import color, io, segmentation
from sklearn.mixture import BayesianGaussianMixture

# Felzenszwalb–Huttenlocher's setting: scale 400 gives about the segment count of the
# human maps (20–40) on BSDS500 photos of 481×321.
FH = dict(scale=400, sigma=0.8, min_size=200)


def felzenszwalb(rgb):
    return segmentation.felzenszwalb(rgb, **FH)


def dpgmm(rgb):
    lab = color.rgb2lab(rgb)
    h, w = lab.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    # Lab and position on comparable scales: L* and a*, b* span about 100, positions
    # are put on the same span.
    feats = np.column_stack([lab.reshape(-1, 3), 100.0 * yy.ravel() / h, 100.0 * xx.ravel() / w])
    rng = np.random.default_rng(1)
    # Fitted on 5 000 of the pixels (20 000 took 49 s a photo, 5 000 3 s), then every
    # pixel is labelled.
    fit_on = feats[rng.choice(len(feats), size=min(5000, len(feats)), replace=False)]
    gm = BayesianGaussianMixture(n_components=20, weight_concentration_prior_type="dirichlet_process",
                                 covariance_type="full", max_iter=100, random_state=1)
    gm.fit(fit_on)
    return gm.predict(feats).reshape(h, w)


def main():
    method, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    segment = {"felzenszwalb": felzenszwalb, "dpgmm": dpgmm}[method]
    os.makedirs(out, exist_ok=True)
    names = sorted(n for n in os.listdir(src) if n.lower().endswith((".jpg", ".jpeg", ".png")))
    total = 0.0
    for name in names:
        rgb = io.imread(os.path.join(src, name))[..., :3]
        start = time.perf_counter()
        labels = segment(rgb)
        took = time.perf_counter() - start
        total += took
        io.imsave(os.path.join(out, os.path.splitext(name)[0] + ".png"), (labels + 1).astype(np.uint16), check_contrast=False)
        print(f"{name}: {labels.max() + 1} segments, {took:.2f} s", file=sys.stderr)
    print(f"{method}: {len(names)} photos, {total / max(len(names), 1):.2f} s per photo", file=sys.stderr)


if __name__ == "__main__":
    main()
