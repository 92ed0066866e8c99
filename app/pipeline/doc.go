// Package pipeline runs a learner on a folder of images: a Request names the images
// (Source: a folder or a built-in sample) and how to load them, Prepare loads them within
// a memory budget, divides out each picture's exposure where the pictures tell it,
// projects them by PCA and describes them (PCA scores, colour histograms or visual
// words), and Prepared.RunOn fits a learner from algorithms (Fitted): with no λ² given, a
// stepwise run chooses K by counting the objects on the scene (algorithms/selection), the
// IBP under its tied prior starts from stepwise's fit and price of a feature, and a
// least-squares result is put in its readable form (a base every image owns). Each stage
// reports through a jobs.Tracker. app/result reads the result; the package reads no
// saved file and draws nothing.
package pipeline
