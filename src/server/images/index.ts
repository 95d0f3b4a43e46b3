/** What other folders may use from images; everything else in the folder is its own business. */
export { imageOfEntry, imagesOnDisk } from './backup';
export { registerImages } from './plugin';
export { imageRoutes } from './routes';
export { createImageStore, type ImageStore } from './storage';
export { imagesForBook } from './book-images';
export { storeImage } from './service';
export type { ImageForBook } from './book-images';
