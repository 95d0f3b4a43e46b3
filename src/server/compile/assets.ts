/** An image of the book, read by the service and handed to a renderer (which runs in a worker thread). */
export type { ImageForBook as BookImage } from '../images';
